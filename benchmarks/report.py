"""How long ``scorecard report`` and ``scorecard monitor`` take, against ``scorecard predict``
on the same rows (the baseline: reading and scoring them once).

The data: datasets/adult.csv (32,561 rows) and the same rows 10 times over; the model: a fixed
three-condition card on adult's binary columns with a logistic risk map (written by this
script, so every run times the same model). Each command runs as a subprocess from spawn to
exit (interpreter start, imports, reading, statistics, writing the page); the median of
``--repeats`` runs and the largest resident set size are reported.

    python benchmarks/report.py [--repeats 3] [--write]
"""
from __future__ import annotations

import argparse
import csv
import datetime
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from results import write_section

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "datasets" / "adult.csv"


def model_file(path: Path) -> None:
    from scorecard.runtime import Input, Model, Target, Term, dump

    model = Model(kind="linear", target=Target("Over50K", 1),
                  inputs=tuple(Input(name, "binary") for name in ("Married", "NoHS", "HSDiploma")),
                  terms=(Term("Married", "==", 1, 3, ""), Term("NoHS", "==", 1, -2, ""),
                         Term("HSDiploma", "==", 1, -1, "")),
                  intercept=-2, missing="null", probability={"method": "logistic", "scale": 0.8})
    dump(model, str(path))


def repeated(path: Path, times: int) -> None:
    with open(DATA, newline="") as fh:
        rows = list(csv.reader(fh))
    with open(path, "w", newline="") as fh:
        writer = csv.writer(fh, lineterminator="\n")
        writer.writerow(rows[0])
        for _ in range(times):
            writer.writerows(rows[1:])


def timed(command: list[str]) -> tuple[float, float]:
    """Wall seconds and peak resident memory (MB) of one command, from spawn to exit."""
    start = time.monotonic()
    process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.monotonic() - start
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{' '.join(command)} failed: {process.stderr.read().decode()[-500:]}")
    return wall, usage.ru_maxrss / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--write", action="store_true", help="write the section of benchmarks/RESULTS.md")
    args = parser.parse_args()
    script = Path(sys.executable).with_name("scorecard")
    sc = str(script) if script.exists() else "scorecard"
    load = os.getloadavg()[0]
    lines = []
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        model = folder / "adult.json"
        model_file(model)
        for times in (1, 10):
            data = folder / f"adult{times}.csv"
            repeated(data, times)
            commands = {
                "predict (baseline)": [sc, "predict", str(model), str(data), "-o", str(folder / "scored.csv")],
                "report": [sc, "report", str(model), "--data", str(data), "-o", str(folder / "report.html")],
                "monitor -o": [sc, "monitor", str(model), "--baseline", str(DATA), "--current", str(data),
                               "-o", str(folder / "drift.html")],
            }
            base = None
            for name, command in commands.items():
                runs = [timed(command) for _ in range(args.repeats)]
                wall = statistics.median(r[0] for r in runs)
                memory = max(r[1] for r in runs)
                base = base or wall
                rows = 32561 * times + (32561 if name.startswith("monitor") else 0)
                lines.append(f"| {name} | {32561 * times:,} | {rows:,} | {wall:.2f} | {wall / base:.2f} | {memory:.0f} |")
                print(lines[-1], flush=True)
    body = "\n".join([
        "## Validation report and drift monitor: time (benchmarks/report.py)", "",
        f"{datetime.date.today()}; {platform.machine()}, {os.cpu_count()} cores (shared with other jobs; load average "
        f"{load:.1f} at the start); Python {platform.python_version()}.",
        f"Command: `python benchmarks/report.py --repeats {args.repeats} --write`", "",
        "Wall time from spawn to exit, median of the runs; memory is the largest resident set. The baseline is "
        "`scorecard predict` on the same rows (read and score them once); `monitor` also reads adult.csv as its "
        "baseline. The statistics are standard-library Python (runtime/stats.py, runtime/validation.py).", "",
        "| command | rows of DATA | rows read | wall (s) | / predict | memory (MB) |",
        "|---|---:|---:|---:|---:|---:|",
        *lines])
    if args.write:
        write_section("report", body)
    print(body)


if __name__ == "__main__":
    main()
