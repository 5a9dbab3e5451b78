"""Does ``--time-limit`` bound the whole command? Wall time / limit per case (target <= 1.05).

Runs ``scorecard train`` and ``scorecard cv`` through the command line, one subprocess per
case, and times each from the moment the process is spawned to its exit: interpreter start,
imports, reading the data, every solver phase, writing the model. Cases: plain SLIM on
breastcancer (auto: exhaustive search, CP-SAT), heart (real-valued columns), mushroom
(zero-error phase), the constrained example (the PuLP MIP on CBC), ``--reduce`` on haberman,
the logistic loss (cutting planes) and ``cv --folds 3 --c0-grid 0.001,0.01``.

    python benchmarks/time_limit.py [--limits 5,20] [--write]
"""
from __future__ import annotations

import argparse
import datetime
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from results import write_section

ROOT = Path(__file__).resolve().parent.parent
CASES = [
    ("breastcancer, C0 0.01", ["train", "datasets/breastcancer.csv", "--target", "Benign", "--c0", "0.01"]),
    ("heart, C0 0.01", ["train", "datasets/heart.csv", "--target", "Disease", "--c0", "0.01"]),
    ("mushroom, C0 1e-5", ["train", "datasets/mushroom.csv", "--target", "poisonous", "--c0", "0.00001"]),
    ("constrained example (CBC MIP)", ["train", "examples/breastcancer.csv", "--config", "examples/constrained.toml"]),
    ("haberman --reduce, C0 0.001", ["train", "datasets/haberman.csv", "--target", "AliveAfter5Yrs", "--c0", "0.001",
                                     "--reduce"]),
    ("breastcancer --loss logistic", ["train", "datasets/breastcancer.csv", "--target", "Benign", "--loss",
                                      "logistic", "--c0", "0.001"]),
    ("cv breastcancer --folds 3 --c0-grid 0.001,0.01", ["cv", "datasets/breastcancer.csv", "--target", "Benign",
                                                         "--folds", "3", "--c0-grid", "0.001,0.01"]),
]


def run(args: list[str], limit: float, out: str) -> tuple[float, int]:
    """Wall seconds of one command from spawn to exit, and its exit code."""
    script = Path(sys.executable).with_name("scorecard")  # the installed command, beside this Python
    command = [str(script) if script.exists() else "scorecard", *args, "--time-limit", f"{limit:g}"]
    if args[0] == "train":
        command += ["-o", out]
    start = time.monotonic()
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    return time.monotonic() - start, done.returncode


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limits", default="5,20", help="time limits to try, in seconds")
    parser.add_argument("--write", action="store_true", help="write the section of benchmarks/RESULTS.md")
    args = parser.parse_args()
    limits = [float(x) for x in args.limits.split(",")]
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, case in CASES:
            for limit in limits:
                wall, code = run(case, limit, os.path.join(tmp, "model.json"))
                rows.append((name, limit, wall, code))
                print(f"{name:50s} limit {limit:5g}  wall {wall:7.2f}  ratio {wall / limit:5.3f}  exit {code}",
                      flush=True)
    worst = max(wall / limit for _, limit, wall, _ in rows)
    print(f"worst ratio {worst:.3f}")
    if args.write:
        lines = [
            "## Time limit: wall time of the whole command (benchmarks/time_limit.py)",
            "",
            f"{datetime.date.today().isoformat()}; {platform.processor() or platform.machine()}, "
            f"{os.cpu_count()} cores (shared with other jobs; load average {load:.1f} at the start); "
            f"Python {platform.python_version()}.",
            f"Command: `python benchmarks/time_limit.py --limits {args.limits} --write`",
            "",
            "Wall time from spawning `scorecard ...` to its exit (start-up, imports, reading, every "
            "phase, writing the model) over `--time-limit`; the target is at most 1.05.",
            "",
            "| case | limit (s) | wall (s) | wall / limit | exit |",
            "|---|---:|---:|---:|---:|",
        ]
        lines += [f"| {name} | {limit:g} | {wall:.2f} | {wall / limit:.3f} | {code} |" for name, limit, wall, code in rows]
        lines += ["", f"Worst ratio: {worst:.3f}."]
        write_section("time_limit", "\n".join(lines))


if __name__ == "__main__":
    main()
