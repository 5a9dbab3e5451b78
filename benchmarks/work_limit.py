"""`scorecard train --work-limit W` on raw data: the same card twice, its time, its test error.

    python benchmarks/work_limit.py --work-limit 0.2                  # the small raw data sets
    python benchmarks/work_limit.py --work-limit 0.2 --write          # ... and records the table

Each data set of benchmarks/raw.py (its 70/30 split, as a user exports it: text, empty cells)
is trained twice by the plain command with ``--work-limit W`` (and ``--time-limit 600``, a
safety net), one run after the other on a machine shared with other jobs; the table says
whether the two model files hold the same card, how long each took and the card's test error,
beside the cached default run of raw.py (``--time-limit 60``, no work limit) and FasterRisk's.
Needs the ``bench`` extra (raw.py's data sets). Not part of the test suite.
"""
from __future__ import annotations

import argparse
import os
import sys

import raw
from paper_table import machine
from results import show

HEADING = "## Reproducible training: `--work-limit` on raw data (benchmarks/work_limit.py)"
#: The data sets of raw.py small enough to train twice in about a minute each at W = 0.2.
SMALL = ("pima", "biopsy", "credit", "mroz", "birthwt", "oj")
TIME_LIMIT = 600


def run(name: str, work: float) -> dict:
    """Two runs of the plain command with ``--work-limit work`` and the cached default ones."""
    train, test, _ = raw.split(name)
    runs = [raw.run_ours(name, train, test, TIME_LIMIT, extra=("--work-limit", f"{work:g}"), tag=f"work-{work:g}-{k}")
            for k in (1, 2)]
    for r in runs:
        if "failure" in r:
            raise SystemExit(f"{name}: {r['failure']}")
    cached = raw.read_cache()
    return {"dataset": name, "runs": runs, "same": all((r["card"], r["intercept"]) == (runs[0]["card"], runs[0]["intercept"])
                                                        for r in runs),
            "default": cached.get(raw.key(name, "ours", 60.0)), "fasterrisk": cached.get(raw.key(name, "fasterrisk", 60.0))}


def _error(run: dict | None) -> str:
    return "-" if not run or run.get("test_error") is None else f"{100 * run['test_error']:.1f} %"


def section(rows: list[dict], work: float, command: str, load: float) -> str:
    lines = [HEADING, "", f"{machine()}; load average {load:.1f} at the start. Command: `{command}`", "",
             f"Plain `scorecard train` with `--work-limit {work:g} --time-limit {TIME_LIMIT}` on raw.py's training split, "
             "run twice; the default run is raw.py's cached `--time-limit 60` one (no work limit).", "",
             "| data set | same card twice | seconds (run 1, run 2) | items | test error | default: items, test error, "
             "seconds | FasterRisk test error |", "|---|---|---|---:|---:|---|---:|"]
    for row in rows:
        first, second = row["runs"]
        default = row["default"] or {}
        lines.append(f"| {row['dataset']} | {'yes' if row['same'] else 'NO'} | {first['seconds']:.0f}, {second['seconds']:.0f} "
                     f"| {first['items']} | {_error(first)} | {default.get('items', '-')}, {_error(default)}, "
                     f"{default.get('seconds', 0):.0f} | {_error(row['fasterrisk'])} |")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--work-limit", type=float, default=0.2)
    parser.add_argument("--datasets", nargs="+", default=list(SMALL), choices=list(raw.DATASETS))
    parser.add_argument("--write", action="store_true", help="record the table in benchmarks/RESULTS.md")
    args = parser.parse_args()
    load = os.getloadavg()[0]
    rows = []
    for name in args.datasets:
        rows.append(run(name, args.work_limit))
        first = rows[-1]["runs"][0]
        print(f"{name}: same card twice: {rows[-1]['same']}, {first['seconds']:.0f} s, {first['items']} items, "
              f"test error {_error(first)}", flush=True)
    show("work-limit", section(rows, args.work_limit, "python " + " ".join(["benchmarks/work_limit.py"] + sys.argv[1:]),
                               load), args.write)


if __name__ == "__main__":
    main()
