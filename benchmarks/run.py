"""One benchmark command: the package against plain ``datasets``, pandas and frictionless.

Every figure is a ratio to a baseline measured in the same run, interleaved
(package, baseline, package, baseline, ...), the median over ``--repeats``
pairs. Each measurement is a whole fresh process timed from outside (imports
count), started from a real program file under ``benchmarks/children/``; a
Python child also reports its in-process step time (around the call itself)
and its own peak RSS (``VmHWM``) as JSON. The package is byte-compiled first, untimed,
as an install does: the children load it from bytecode, as they load ``datasets``.

Groups (``--only`` runs one):

- ``build``: cold ``hatemoji_datasets.load_dataset(name, config, cache_dir=FRESH,
  mirror=MIRROR)`` per dataset/config vs ``datasets.load_dataset("csv",
  data_files=..., cache_dir=FRESH)`` of the same upstream files from the mirror;
  plus one build that validates its pinned files too (``validate=True``).
- ``warm``: the same two calls again on their already-built caches (the package
  with every check it makes on a cache hit).
- ``cli``: ``hatemoji-datasets list | sources | --help`` (the console script),
  absolute times, vs ``python -c pass``.
- ``validate``: ``hatemoji-datasets validate FILE --dataset hatemoji_check`` on
  synthetic contributions (``validate_scaling.write_contribution``; 10k, 200k, 1M
  and 4M rows, written in the run's temp folder) vs a ``pandas.read_csv(FILE)``
  process, with peak memory; at the ``--peer-sizes`` also vs ``frictionless
  validate --schema`` with the exported Table Schema. Then ``validate --dataset
  multilingual_hatecheck --config german`` of a ``--mhc-mb`` file named like the
  German upstream file, one released row repeated
  (``validate_scaling.write_repeated_row``), vs ``read_csv`` of it: each child under
  its own ``--mhc-timeout`` and ``--mhc-cap-mb`` (a stopped one is reported with
  the peak it reached, and ends the repeats), with its exit code and its count of
  findings.
- ``leaderboard``: ``hatemoji_datasets.evaluate.leaderboard`` over 150 runs in each of the
  five languages of the MHC paper's Table 2 (750 runs, about 2.8M predictions; the
  released Spanish runs under the mirror's sibling ``reference/mhc-elr-emnlp2022``, and
  for the other four languages runs of the same names written from them,
  ``children/write_runs.py``) vs the loop a researcher writes (``pandas.read_csv``, then
  scikit-learn's metrics per run, then a ``groupby``), both reading the gold labels through
  the same warm cache.

Usage: ``HATEMOJI_DATASETS_MIRROR=/path/to/mirror python benchmarks/run.py
[--repeats 5 | --smoke] [--only GROUP] [--sizes 10000 200000 1000000 4000000]
[--peer-sizes 200000] [--mhc-mb 500] [--mhc-timeout 600] [--mhc-cap-mb 8192]
[--write [--section TITLE]]``. ``--smoke`` runs every group and every figure at
tiny sizes (1k, 2k, 5k and 20k rows standing in for 10k, 200k, 1M and 4M; a 1 MB
Multilingual HateCheck file), once, in a minute or two: it shows the harness
works, not how fast anything is. ``--write`` replaces only the section TITLE
(default "Latest run") of ``benchmarks/RESULTS.md`` and keeps every other one.

The harness imports only the standard library, so its own small RSS is the floor
of the peak memory reported for the rows that cannot report ``VmHWM`` themselves
(the console script, frictionless): Linux carries a parent's peak into a child's
``ru_maxrss`` across fork/exec.
"""

from __future__ import annotations

import argparse
import os
import shlex
import shutil
import sys
import tempfile
import time
from pathlib import Path

from processes import FAILED, Limits, byte_compile, child, progress, run_child, tool
from report import (
    ROLES,
    SMOKE_ROLES,
    Pairs,
    Run,
    build_table,
    cli_table,
    harness_rss,
    leaderboard_table,
    machine,
    targets_table,
    write_section,
)
from validate_report import mhc_table, validate_figures, validate_table

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent

#: The build that validates its pinned files too (``validate=True``), for scale.
VALIDATING = ("hatemoji_build", "all")
#: The exported Table Schema of the file ``validate`` is measured on.
TABLE_SCHEMA = ROOT / "schemas" / "hatemoji_check" / "HatemojiCheckRaw.table-schema.json"
#: The dataset and config of the big contribution (one released row repeated).
MHC = ("multilingual_hatecheck", "german")
#: The languages of the MHC paper's Table 2 (the leaderboard group), and its runs' names.
BOARD_LANGUAGES = ("spanish", "portuguese", "hindi", "arabic", "italian")
BOARD_PATTERN = "{model}_{size}_rs{seed}.csv"
#: The released runs (Spanish) the leaderboard group starts from, beside the mirror.
BOARD_REFERENCE = Path("reference", "mhc-elr-emnlp2022", "hatecheck_es")


# --------------------------------------------------------------------------- the groups


def list_configs(run: Run) -> list[dict]:
    """Every config of the package, with the upstream files it reads (asked of a child);
    a smoke run takes the first config and the validating one: it shows the children
    work, and building more would only repeat that."""
    if run.configs is None:
        listed = run_child(child("list_configs.py", {"mirror": str(run.mirror)}), run.env, "list")
        run.configs = listed["configs"] if listed else []
        if run.smoke:
            run.configs = [
                entry
                for at, entry in enumerate(run.configs)
                if at == 0 or (entry["name"], entry["config"]) == VALIDATING
            ]
    return run.configs


def load_args(entry: dict, run: Run, caches: tuple[str, str], **package) -> tuple[dict, dict]:
    """The package's and the baseline's arguments for one config."""
    mine = {"name": entry["name"], "config": entry["config"], "cache": caches[0]}
    plain_csv = entry["delimiter"] == "," and entry["quoting"] == 0  # csv.QUOTE_MINIMAL
    kw = {} if plain_csv else {"delimiter": entry["delimiter"], "quoting": entry["quoting"]}
    plain = {"files": entry["files"], "cache": caches[1], "kw": kw}
    return {**mine, "mirror": str(run.mirror), **package}, plain


def fresh_caches(run: Run, prefix: str) -> tuple[str, str]:
    made = tuple(tempfile.mkdtemp(prefix=prefix, dir=run.tmp) for _ in range(2))
    return made[0], made[1]


def build_caches(run: Run, entry: dict, group: str) -> tuple[str | None, str | None]:
    """One config built once, untimed, by the package and by plain ``datasets`` (for warm
    loads); each side's cache folder, or None where its build failed."""
    dirs = fresh_caches(run, f"{group}-")
    mine, plain = load_args(entry, run, dirs)
    label = f"{group} {entry['name']}/{entry['config']}: building caches"
    progress(label)
    a = run_child(child("load_package.py", mine), run.env, f"{label} (package)")
    b = run_child(child("load_plain.py", plain), run.env, f"{label} (baseline)")
    return dirs[0] if a else None, dirs[1] if b else None


def child_env(tmp: str) -> dict[str, str]:
    """The children's environment: offline, an ``HF_HOME`` of this run only, and no mirror
    variable (both sides are given the mirror explicitly)."""
    env = dict(os.environ)
    env.pop("HATEMOJI_DATASETS_MIRROR", None)
    env.update(
        HF_HOME=str(Path(tmp) / "hf-home"),  # no shared ~/.cache between runs
        HF_HUB_OFFLINE="1",
        HF_DATASETS_OFFLINE="1",
    )
    return env


def run_build(run: Run) -> tuple[dict, dict]:
    """Cold builds; the results and one built cache per side and config (for warm)."""
    results, caches = {}, {}
    configs = list_configs(run)
    cases = [(entry, False) for entry in configs]
    cases += [(entry, True) for entry in configs if (entry["name"], entry["config"]) == VALIDATING]
    warm_up = not run.smoke
    for entry, validate in cases:
        name, config = entry["name"], entry["config"]
        pairs = Pairs()
        for repeat in range(run.repeats + warm_up):
            dirs = fresh_caches(run, "cold-")
            mine, plain = load_args(entry, run, dirs, validate=validate)
            label = f"build {name}/{config}{' validate=True' if validate else ''} #{repeat}"
            progress(label)
            a = run_child(child("load_package.py", mine), run.env, f"{label} package")
            b = run_child(child("load_plain.py", plain), run.env, f"{label} baseline")
            if warm_up:  # the first pair of the whole group is untimed (file cache, .pyc)
                warm_up = False
                continue
            pairs.add(a, b)
            if not validate:
                caches[name, config] = (dirs[0] if a else None, dirs[1] if b else None)
        results[name, config, validate] = pairs
    return results, caches


def run_warm(run: Run, caches: dict) -> dict:
    results = {}
    for entry in list_configs(run):
        name, config = entry["name"], entry["config"]
        built = caches.get((name, config))
        if built is None:  # --only warm: build both caches once, untimed
            built = build_caches(run, entry, "warm")
        mine, plain = load_args(entry, run, (built[0] or "", built[1] or ""))
        pairs = Pairs()
        for repeat in range(run.repeats):
            label = f"warm {name}/{config} #{repeat}"
            progress(label)
            a = run_child(child("load_package.py", mine), run.env, label) if built[0] else None
            b = run_child(child("load_plain.py", plain), run.env, label) if built[1] else None
            pairs.add(a, b)
        results[name, config, False] = pairs
    return results


def run_cli(run: Run) -> dict:
    script = tool("hatemoji-datasets") or [sys.executable, "-m", "hatemoji_datasets"]
    baseline = [sys.executable, "-c", "pass"]
    commands = {"list": ["list"], "sources": ["sources"], "--help": ["--help"]}
    for argv in commands.values():  # untimed warm-up
        run_child(script + argv, run.env, "cli warm-up")
    results = {}
    for command, argv in commands.items():
        pairs = Pairs()
        for repeat in range(run.repeats):
            progress(f"cli {command} #{repeat}")
            a = run_child(script + argv, run.env, f"cli {command}")
            b = run_child(baseline, run.env, "python -c pass")
            pairs.add(a, b)
        results[command] = pairs
    return results


def run_validate(run: Run) -> tuple[dict, dict | None]:
    """The synthetic HatemojiCheck sizes, then the Multilingual HateCheck contribution."""
    folder = Path(tempfile.mkdtemp(prefix="validate-", dir=run.tmp))
    cache = str(folder / "cache")
    files = [(rows, str(folder / f"contribution_{rows}.csv")) for rows in run.sizes]
    mhc = {"folder": str(folder / "mhc"), "megabytes": run.mhc_mb}
    mhc.update(dataset=MHC[0], config=MHC[1])
    progress(
        f"validate: writing {', '.join(f'{rows:,}' for rows, _ in files)} row files and a "
        f"{run.mhc_mb:,g} MB {MHC[0]} ({MHC[1]}) file"
    )
    made = run_child(
        child("write_contributions.py", {"files": files, "mirror": str(run.mirror), "mhc": mhc}),
        run.env,
        "writing synthetic files",
    )
    if made is None:
        return {rows: (None, Pairs(), None) for rows, _ in files}, None
    shutil.copyfile(TABLE_SCHEMA, folder / "schema.json")  # frictionless wants relative paths
    frictionless = tool("frictionless")
    where = ["--mirror", str(run.mirror), "--cache-dir", cache]

    def argv(path: str) -> list[str]:
        return ["validate", path, "--dataset", "hatemoji_check", *where]

    progress("validate: warm-up (caches the released data)")
    run_child(child("validate_package.py", {"argv": argv(files[0][1])}), run.env, "warm-up")
    results = {}
    for rows, path in files:
        pairs, peers = Pairs(), Pairs() if frictionless and rows in run.peer_sizes else None
        for repeat in range(run.repeats):
            label = f"validate {rows:,} rows #{repeat}"
            progress(label)
            a = run_child(child("validate_package.py", {"argv": argv(path)}), run.env, label)
            b = run_child(child("read_csv.py", {"file": path}), run.env, f"{label} read_csv")
            pairs.add(a, b)
            if peers is not None:
                command = [*frictionless, "validate", "--schema", "schema.json", Path(path).name]
                c = run_child(command, run.env, f"{label} frictionless", cwd=str(folder))
                peers.add(a, c)
        results[rows] = (os.path.getsize(path) / 1e6, pairs, peers)
    return results, run_mhc(run, made["mhc"], where)


def run_mhc(run: Run, made: dict, where: list[str]) -> dict:
    """``validate --config LANGUAGE`` of one released row repeated, vs ``read_csv``: each
    child under its own limits, a stopped one reported (and the repeats ended)."""
    name, config = MHC

    def argv(path: str) -> list[str]:
        return ["validate", path, "--dataset", name, "--config", config, *where]

    limits = Limits(run.mhc_timeout, run.mhc_cap_mb, ok=(0, 1))  # 1: it has findings
    progress(f"validate {name}: warm-up (the row alone; caches the released data)")
    alone = run_child(child("validate_package.py", {"argv": argv(made["alone"])}), run.env, "mhc")
    found = {
        "language": config,
        "rows": made["rows"],
        "file_mb": os.path.getsize(made["path"]) / 1e6,
        "pairs": Pairs(),
        "killed": None,
        "alone": alone.get("exit_code") if alone else "error",
        "command": "hatemoji-datasets " + shlex.join(argv(Path(made["path"]).name)[:6]),
        "timeout": run.mhc_timeout,
        "cap_mb": run.mhc_cap_mb,
    }
    for repeat in range(run.repeats):
        label = f"validate {found['file_mb']:,.1f} MB {name} #{repeat}"
        progress(label)
        mine = child("validate_package.py", {"argv": argv(made["path"])})
        a = run_child(mine, run.env, label, limits=limits)
        b = run_child(child("read_csv.py", {"file": made["path"]}), run.env, label, limits=limits)
        b = None if b and b.get("killed") else b
        if a and a.get("killed"):
            found["killed"], found["killed_baseline"] = a, b
            break
        found["pairs"].add(a, b)
    return found


def run_leaderboard(run: Run) -> Pairs | None:
    """The leaderboard of 750 runs vs the plain loop; None without the released runs."""
    released = run.mirror.parent / BOARD_REFERENCE
    if not released.is_dir():
        progress(f"leaderboard: skipped, no released runs at {released}")
        return None
    folder = Path(tempfile.mkdtemp(prefix="leaderboard-", dir=run.tmp))
    languages = BOARD_LANGUAGES[:1] if run.smoke else BOARD_LANGUAGES
    args = {
        "folder": str(folder / "runs"),
        "languages": list(languages),
        "pattern": BOARD_PATTERN,
        "cache": str(folder / "cache"),
        "mirror": str(run.mirror),
    }
    progress(f"leaderboard: writing {len(languages) * 150} runs, building {len(languages)} configs")
    made = run_child(
        child("write_runs.py", {**args, "reference": str(released)}), run.env, "writing runs"
    )
    pairs = Pairs()
    if made is None:
        return pairs
    for repeat in range(run.repeats + (0 if run.smoke else 1)):
        label = f"leaderboard {made['runs']:,} runs #{repeat}"
        progress(label)
        a = run_child(child("leaderboard_package.py", args), run.env, f"{label} package")
        b = run_child(child("leaderboard_plain.py", args), run.env, f"{label} plain loop")
        if repeat or run.smoke:  # the first pair is untimed (file cache, .pyc)
            pairs.add(a, b)
    return pairs


# --------------------------------------------------------------------------- main


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5, help="pairs per case (default 5)")
    parser.add_argument(
        "--smoke", action="store_true", help="every group at tiny sizes, once: a minute or two"
    )
    parser.add_argument("--only", choices=("build", "warm", "cli", "validate", "leaderboard"))
    parser.add_argument(
        "--sizes", type=int, nargs="+", help="validate rows (10k 200k 1M 4M; smoke: 1k 2k 5k 20k)"
    )
    parser.add_argument(
        "--peer-sizes", type=int, nargs="+", help="rows also run with frictionless (200k)"
    )
    parser.add_argument(
        "--mhc-mb",
        type=float,
        help="megabytes of the Multilingual HateCheck contribution (500; smoke: 1)",
    )
    parser.add_argument(
        "--mhc-timeout", type=float, default=600.0, help="its children's time limit (600 s)"
    )
    parser.add_argument(
        "--mhc-cap-mb", type=float, default=8192.0, help="its children's memory cap (8192 MB)"
    )
    parser.add_argument("--mirror", default=os.environ.get("HATEMOJI_DATASETS_MIRROR"))
    parser.add_argument("--write", action="store_true", help="write benchmarks/RESULTS.md")
    parser.add_argument("--section", default="Latest run", help="RESULTS.md section to replace")
    args = parser.parse_args()
    if not args.mirror:
        sys.exit("set HATEMOJI_DATASETS_MIRROR (or --mirror) to the offline mirror")
    if args.smoke and args.write:
        sys.exit("--smoke measures nothing worth keeping: it cannot --write")
    repeats = 1 if args.smoke else args.repeats
    roles = dict(SMOKE_ROLES if args.smoke else ROLES)
    sizes = args.sizes or sorted(set(roles.values()))
    peer_sizes = args.peer_sizes or [roles["peer"]]
    mhc_mb = args.mhc_mb or (1.0 if args.smoke else 500.0)
    groups = [args.only] if args.only else ["build", "warm", "cli", "validate", "leaderboard"]
    began = time.perf_counter()
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="hatemoji-bench-") as tmp:
        env = child_env(tmp)
        compiled = byte_compile(env)
        run = Run(Path(args.mirror).resolve(), repeats, sizes, peer_sizes, tmp, env, args.smoke)
        run.roles, run.mhc_mb = roles, mhc_mb
        run.mhc_timeout, run.mhc_cap_mb = args.mhc_timeout, args.mhc_cap_mb
        out: list[str] = []
        found: dict[str, dict] = {}
        validate_rows: list[list[str]] = []
        caches: dict = {}
        if "build" in groups:
            found["build"], caches = run_build(run)
            out += build_table(found["build"], "Cold build vs plain `datasets` csv", "build")
        if "warm" in groups:
            found["warm"] = run_warm(run, caches)
            out += build_table(found["warm"], "Warm load vs plain `datasets` csv", "warm")
        if "cli" in groups:
            found["cli"] = run_cli(run)
            out += cli_table(found["cli"])
        if "validate" in groups:
            found["validate"], mhc = run_validate(run)
            out += validate_table(found["validate"], roles)
            out += mhc_table(mhc) if mhc else []
            validate_rows = validate_figures(found["validate"], mhc, roles)
        if "leaderboard" in groups:
            board = run_leaderboard(run)
            if board is not None:
                found["leaderboard"] = board
                out += leaderboard_table(board)
    elapsed = time.perf_counter() - began
    load_after = os.getloadavg()
    body = [
        *machine(ROOT),
        f"- Command: `python benchmarks/run.py {shlex.join(sys.argv[1:])}`; "
        f"median of {repeats} interleaved pair(s); whole run {elapsed / 60:.1f} min; "
        f"harness peak RSS {harness_rss():.0f} MB",
        f"- Load average (1 min) {load_before[0]:.2f} at the start, {load_after[0]:.2f} at the "
        f"end (5 min: {load_after[1]:.2f}), on {os.cpu_count()} cores",
        "- The package was byte-compiled before measuring, as an install does"
        if compiled
        else "- **The package could not be byte-compiled**: its children compiled it from source",
        "- Times are wall seconds of whole processes (imports count), medians; a ratio is the "
        "median of per-pair ratios; step = in-process time around the call itself (the "
        "package's step includes what it imports lazily inside the call).",
        "",
        *(
            [
                "**Smoke run**: tiny sizes, one pair each, no warm-up pair; it shows that every "
                "group runs, and its figures say nothing about speed.",
                "",
            ]
            if args.smoke
            else []
        ),
        *targets_table(found, validate_rows),
        *out,
    ]
    print("\n".join(body))
    if args.write:
        write_section(HERE / "RESULTS.md", args.section, body)
        print(f"\nwrote section {args.section!r} of {HERE / 'RESULTS.md'}", file=sys.stderr)
    if FAILED:
        sys.exit(f"{len(FAILED):,} measurement(s) failed: {', '.join(FAILED[:5])}")


if __name__ == "__main__":
    main()
