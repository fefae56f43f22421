"""Settings and the Hub as a careless user meets them: one line, never a token.

A mirror URL that is not one, a repository id the Hub would refuse, a token
from a saved login echoed by the Hub: each failed on 3eb3066 (a ``ValueError``
traceback; a dry run planning "create dataset repository ../x"; the saved
token printed in the error line). Commands that need a dataset run on
the tests' synthetic dataset.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from support.cli import one_error_line
from support.synthetic import SYNTHETIC

from hatemoji_datasets.cli import main
from hatemoji_datasets.core.errors import SourceError
from hatemoji_datasets.hub import push as hub_push
from hatemoji_datasets.sources.settings import mirror_setting

pytestmark = pytest.mark.usefixtures("synthetic")


@pytest.mark.parametrize(
    ("url", "why"),
    [
        ("http://127.0.0.1:99999/", "Port out of range"),
        ("http://[::1", "Invalid IPv6 URL"),
        ("ftp://example.org/mirror", "the scheme must be http, https or file"),
        ("https:///no-host", "it names no host"),
    ],
)
def test_a_bad_mirror_url_isone_error_line(
    url: str, why: str, tmp_path: Path, monkeypatch, capsys
) -> None:
    with pytest.raises(SourceError, match=why):
        mirror_setting(url)
    code = main(["build", SYNTHETIC, "--cache-dir", str(tmp_path), "--mirror", url])
    line = one_error_line(capsys.readouterr().err)
    assert code == 1 and why in line and f"mirror {url!r} is not a valid URL" in line
    monkeypatch.setenv("HATEMOJI_DATASETS_MIRROR", url)
    assert main(["build", SYNTHETIC, "--cache-dir", str(tmp_path)]) == 1
    assert "HATEMOJI_DATASETS_MIRROR" in one_error_line(capsys.readouterr().err)


def test_a_mirror_url_keeps_its_credentials_out_of_the_message() -> None:
    with pytest.raises(SourceError) as raised:
        mirror_setting("https://user:hunter2secret@[::1/")
    assert "hunter2secret" not in str(raised.value) and "https://***@" in str(raised.value)


@pytest.mark.parametrize(
    "repo_id", ["../x", "org/..", "org/x?y", "org/x.git", "org/a--b", "-org/x", "org/" + "n" * 97]
)
def test_a_repository_id_the_hub_refuses_is_refused(repo_id: str, capsys) -> None:
    with pytest.raises(hub_push.HubError, match="is not ORG/NAME the Hub accepts"):
        hub_push.check_repo_id(repo_id)
    # The dry run refuses it before anything is built or planned.
    code = main(["push", SYNTHETIC, f"--repo-id={repo_id}", "--dry-run"])
    captured = capsys.readouterr()
    assert code == 1 and captured.out == ""
    assert "is not ORG/NAME" in one_error_line(captured.err)


class RejectingApi:
    """A Hub that answers 401 and, as some proxies do, echoes the request's token."""

    def __init__(self, token: str) -> None:
        self.token = token

    def create_repo(self, *args: Any, **kwargs: Any) -> None:
        raise PermissionError(
            f"401 Client Error: Unauthorized (Authorization: Bearer {self.token})"
        )


@pytest.mark.parametrize("where", ["saved login", "HF_TOKEN", "--token", "stored tokens"])
def test_every_token_is_masked(
    where: str, tmp_path: Path, session_cache: Path, mirror: Path, monkeypatch, capsys
) -> None:
    token = "hf_" + "S3cretSavedLoginToken" + where.replace(" ", "")
    home = tmp_path / "hf-home"
    home.mkdir()
    monkeypatch.setenv("HF_HOME", str(home))
    for variable in ("HF_TOKEN", "HUGGING_FACE_HUB_TOKEN", "HF_TOKEN_PATH"):
        monkeypatch.delenv(variable, raising=False)
    args = ["push", SYNTHETIC, "--repo-id", "org/hc"]
    if where == "saved login":
        (home / "token").write_text(token + "\n", encoding="utf-8")
    elif where == "stored tokens":
        (home / "stored_tokens").write_text(f"[work]\nhf_token = {token}\n", encoding="utf-8")
    elif where == "HF_TOKEN":
        monkeypatch.setenv("HF_TOKEN", token)
    else:
        args += ["--token", token]
    original = hub_push.push

    def push_with(*positional: Any, **keywords: Any) -> Any:
        return original(*positional, api=RejectingApi(token), **keywords)

    monkeypatch.setattr(hub_push, "push", push_with)
    code = main([*args, "--cache-dir", str(session_cache), "--mirror", str(mirror)])
    captured = capsys.readouterr()
    line = one_error_line(captured.err)
    assert code == 1 and token not in captured.out + captured.err
    assert "cannot create the repository: PermissionError: 401 Client Error" in line
    assert "Bearer ***" in line


def test_a_token_is_masked_in_any_message(capsys, monkeypatch) -> None:
    """Not only the Hub's: a token pasted where a dataset name goes is masked too."""
    token = "hf_PastedInTheWrongPlace123"
    monkeypatch.setenv("HF_TOKEN", token)
    assert main(["push", token, "--repo-id", "org/x", "--dry-run"]) == 1
    line = one_error_line(capsys.readouterr().err)
    assert token not in line and "unknown dataset '***'" in line
