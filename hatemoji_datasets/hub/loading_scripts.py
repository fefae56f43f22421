"""Hub loading scripts for ``datasets`` < 4: one thin module per dataset over this package.

``loading_scripts/<name>/<name>.py`` subclasses the package's builder of the
dataset's current version, and ``README.md`` says how to use it. Both are
generated from the declaration and checked for drift::

    python -m hatemoji_datasets.hub.loading_scripts            # rewrite loading_scripts/
    python -m hatemoji_datasets.hub.loading_scripts --check    # exit 1 if any is stale
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from hatemoji_datasets.core.registry import specs
from hatemoji_datasets.core.spec import DatasetSpec

FOLDER = Path("loading_scripts")

# Both are ruff-format stable for any name: magic trailing commas keep each call split.
SCRIPT = '''"""Loading script of ``{name}`` for ``datasets`` < 4 (``trust_remote_code=True``).

A thin module over the ``hatemoji-datasets`` package (``pip install hatemoji-datasets``),
which holds the pinned sources, the schema checks and the build: this script
builds exactly what ``hatemoji_datasets.load_dataset("{name}")`` builds, and a
fresh build is checked against the package's recorded fingerprints. Set
``HATEMOJI_DATASETS_MIRROR`` to read the upstream files from a local mirror.
"""

from hatemoji_datasets.building.builder import builder_class


class {cls}(
    builder_class(
        "{name}",
    ),
):
    """The dataset at the package's current version (see ``hatemoji-datasets list``)."""
'''

README = """# `{name}` loading script (for `datasets` < 4)

A Hub-style loading script for users still on `datasets` 3.x, which runs
dataset scripts. It is a thin module over the `hatemoji-datasets` package, so
that package must be installed first. It is not on PyPI yet, so install it
from its repository at a fixed commit (the same install the validation
workflow pins; replace ORG with the repository's owner):

```bash
pip install '{install}' 'datasets>=3.6,<4'
```

Once it is released, the release will do:

```bash
pip install hatemoji-datasets 'datasets>=3.6,<4'
```

```python
import datasets

data = datasets.load_dataset(
    "loading_scripts/{name}",
    trust_remote_code=True,
)  # configs: {configs}
```

It builds the dataset's current version exactly as
`hatemoji_datasets.load_dataset("{name}")` does: pinned, checksum-verified
upstream files, validated raw rows, and a fresh build checked against the
package's recorded fingerprints. Older versions are built by the package
(`hatemoji_datasets.load_dataset("{name}:VERSION")`). To read the upstream
files from a local copy laid out as `MIRROR/HOST/PATH`, set
`HATEMOJI_DATASETS_MIRROR=/path/to/mirror`. `datasets` 4 and later run no
scripts: use `hatemoji_datasets.load_dataset` there.
"""


#: The validation workflow, whose ``PACKAGE`` is the one place the install is pinned.
WORKFLOW = Path(__file__).resolve().parents[2] / ".github" / "workflows" / "validate-data.yml"


def pinned_install() -> str:
    """The install the workflow pins (``PACKAGE``): before a release, the repository at a commit."""
    import yaml

    return str(yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))["env"]["PACKAGE"])


def class_name(name: str) -> str:
    return "".join(part.title() for part in name.split("_"))


def rendered(spec: DatasetSpec) -> dict[str, str]:
    """``{path relative to loading_scripts/: text}`` of one dataset's script folder."""
    values = {
        "name": spec.name,
        "cls": class_name(spec.name),
        "install": pinned_install(),
        "configs": ", ".join(spec.config_names),
    }
    return {
        f"{spec.name}/{spec.name}.py": SCRIPT.format(**values),
        f"{spec.name}/README.md": README.format(**values),
    }


def stale_files(root: Path, *, write: bool) -> list[Path]:
    """Every script file under ``root`` that differs from its render (rewritten with ``write``)."""
    stale = []
    for spec in specs().values():
        for relative, text in rendered(spec).items():
            path = root / relative
            if path.is_file() and path.read_text(encoding="utf-8") == text:
                continue
            stale.append(path)
            if write:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(text, encoding="utf-8", newline="\n")
    return stale


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Write (or --check) the Hub loading scripts.")
    parser.add_argument("--output", type=Path, default=FOLDER, help="default: loading_scripts")
    parser.add_argument("--check", action="store_true", help="only report stale files")
    args = parser.parse_args(argv)
    stale = stale_files(args.output, write=not args.check)
    for path in stale:
        print(f"{'differs' if args.check else 'wrote'}: {path}")
    if not stale:
        print(f"{args.output}: every loading script matches the declarations")
    return 1 if args.check and stale else 0


if __name__ == "__main__":
    sys.exit(main())
