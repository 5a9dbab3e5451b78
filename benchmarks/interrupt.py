"""Ctrl-C in each step of `scorecard train`, `predict` and `export`: seconds from SIGINT to exit.

The goal (issue: the default card on unseen data) is 2 s in every step. Each run is the test's
(tests/cli/test_cli_default_card.py): the process is stopped at the step it announces
(`--verbose`), sent SIGINT and let go on, so the signal lands in that step; the seconds are
measured from SIGCONT to exit, ``--repeat`` times, median and largest reported.

    python benchmarks/interrupt.py --repeat 5 --write
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

from paper_table import machine
from results import show

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "cli"))
from test_cli_default_card import RAW, SCORECARD, _interrupt_at  # noqa: E402

STEPS = (("titanic", "reading"), ("titanic", "cross-validation: the logistic-loss cards"),
         ("titanic", "cross-validation: C0"), ("titanic", "the exact search of the card on every row"),
         ("pima", "the logistic-loss card of"), ("pima", "the exact integer program"))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--write", action="store_true", help="record the results in benchmarks/RESULTS.md")
    args = parser.parse_args()
    load = os.getloadavg()[0]
    rows = []
    for name, step in STEPS:
        data, target, positive = RAW[name]
        seconds, codes = [], set()
        for _ in range(args.repeat):
            with tempfile.TemporaryDirectory() as folder:
                code, took, _ = _interrupt_at([*SCORECARD, "train", str(data), "--target", target, "--positive",
                                               positive, "-o", str(Path(folder) / "m.json")], step)
            seconds.append(took)
            codes.add(code)
        rows.append(f"| {name} | `step: {step}` | {'/'.join(map(str, sorted(codes)))} | "
                    f"{statistics.median(seconds):.2f} | {max(seconds):.2f} |")
        print(rows[-1], file=sys.stderr, flush=True)
    text = "\n".join([
        "## Ctrl-C: seconds from SIGINT to exit (benchmarks/interrupt.py)", "",
        f"{machine()}; `python benchmarks/interrupt.py --repeat {args.repeat}` on "
        f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, load average {load:.1f} at the start. `scorecard "
        "train` with `--verbose`, stopped (SIGSTOP) as soon as it announces the step, sent SIGINT and continued; "
        "seconds from then to its exit (Python start-up is before the step). Goal: at most 2 s in every step.", "",
        "| data | step | exit code | median s | largest s |", "|---|---|---:|---:|---:|", *rows])
    show("interrupt", text, args.write)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
