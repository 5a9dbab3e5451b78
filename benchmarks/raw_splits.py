"""The raw-data comparison of benchmarks/raw.py on repeated splits: is a gap systematic?

raw.py scores each data set on one stratified 70/30 split (seed 0); a test set of 57 or 321
rows has a standard error of 6 or 2 points, so one split cannot say whether the plain
command is behind FasterRisk on a data set or was unlucky there. This runs the same two
methods (the plain ``scorecard train`` with ``--time-limit``, and FasterRisk in its own venv)
on the splits of seeds 1..K-1 as well, each split's files in ``cache/raw/NAME/seed-K/``, and
reports per data set the mean test error over the K splits (seed 0 from raw.py's cache), its
spread, the mean number of items, and the mean paired difference with its standard error.

    python benchmarks/raw_splits.py --splits 5 --time-limit 60 --write
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

from paper_table import machine
from raw import (CACHE, DATASETS, SEED, TOLERANCE, append_run, key, pct, read_cache, read_runs, run_fasterrisk, run_ours,
                 split)
from results import write_section

SPLITS_CACHE = CACHE / "splits.jsonl"
METHODS = ("ours", "fasterrisk")


def split_runs() -> dict[tuple, dict]:
    """(data set, method, seed, time limit or None) -> the run, from this script's cache."""
    return read_runs(SPLITS_CACHE, lambda run: (run["dataset"], run["method"], run["seed"], run["time_limit"]))


def run_splits(args: argparse.Namespace, command: str) -> None:
    done = split_runs()
    for seed in range(SEED + 1, SEED + args.splits):
        for name in args.datasets:
            limits = {"ours": args.time_limit, "fasterrisk": None}
            todo = [m for m in METHODS if args.force or (name, m, seed, limits[m]) not in done]
            if not todo:
                continue
            train, test, _ = split(name, seed)
            common = {"dataset": name, "seed": seed, "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
                      "load": os.getloadavg()[0], "command": command}
            for method in todo:
                result = run_ours(name, train, test, args.time_limit) if method == "ours" else \
                    run_fasterrisk(name, train, test)
                append_run(SPLITS_CACHE, {**common, "method": method, "time_limit": limits[method], **result})
                print(f"{name} seed {seed} {method}: {result.get('failure') or result.get('test_error')}",
                      file=sys.stderr, flush=True)


def results(args: argparse.Namespace, name: str, method: str) -> list[tuple[float, int] | None]:
    """(test error, items) of seeds 0..K-1 (None where a split has no run or no model)."""
    first = read_cache().get(key(name, method, args.time_limit))
    runs = split_runs()
    limit = args.time_limit if method == "ours" else None
    found = [first] + [runs.get((name, method, seed, limit)) for seed in range(SEED + 1, SEED + args.splits)]
    return [(r["test_error"], r["items"]) if r and "test_error" in r else None for r in found]


def report(args: argparse.Namespace, command: str) -> str:
    lines = [
        "## Raw data on repeated splits (benchmarks/raw_splits.py)",
        "",
        f"{machine()}; `{command}` on {time.strftime('%Y-%m-%d', time.gmtime())}. Each data set of "
        f"benchmarks/raw.py split 70/30 (stratified) with seeds 0-{args.splits - 1}; seed 0 is raw.py's split "
        f"(its cached runs), the others are run here: ours = the plain `scorecard train` with --time-limit "
        f"{args.time_limit:g}, FasterRisk as in raw.py. Test error in %: mean over the splits (smallest-largest); "
        "difference = ours - FasterRisk, mean over the splits and its standard error (paired).",
        "",
        "| data set | splits | ours | items | FasterRisk | items | difference | ours behind by more than 1.5 |",
        "|---|---:|---:|---:|---:|---:|---:|---|",
    ]
    means = {"ours": [], "fasterrisk": []}
    for name in args.datasets:
        ours, theirs = results(args, name, "ours"), results(args, name, "fasterrisk")
        pairs = [(a, b) for a, b in zip(ours, theirs) if a is not None and b is not None]
        if not pairs:
            lines.append(f"| {name} | 0 | not run | | not run | | | |")
            continue
        a, b = [p[0][0] for p in pairs], [p[1][0] for p in pairs]
        items = [statistics.mean(p[k][1] for p in pairs) for k in (0, 1)]
        diff = [x - y for x, y in zip(a, b)]
        se = statistics.stdev(diff) / len(diff) ** 0.5 if len(diff) > 1 else float("nan")
        means["ours"].append(statistics.mean(a))
        means["fasterrisk"].append(statistics.mean(b))
        behind = 100 * statistics.mean(diff) > TOLERANCE
        lines.append(f"| {name} | {len(pairs)} | {pct(statistics.mean(a))} ({pct(min(a))}-{pct(max(a))}) | "
                     f"{items[0]:.1f} | {pct(statistics.mean(b))} ({pct(min(b))}-{pct(max(b))}) | {items[1]:.1f} | "
                     f"{100 * statistics.mean(diff):+.1f} ± {100 * se:.1f} | {'yes' if behind else 'no'} |")
    if means["ours"]:
        lines.append(f"| **mean** | | {pct(statistics.mean(means['ours']))} | | "
                     f"{pct(statistics.mean(means['fasterrisk']))} | | "
                     f"{100 * (statistics.mean(means['ours']) - statistics.mean(means['fasterrisk'])):+.1f} | |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--splits", type=int, default=5, help="splits per data set, seed 0's included (default 5)")
    parser.add_argument("--time-limit", type=float, default=60.0, help="--time-limit of our command (default 60)")
    parser.add_argument("--datasets", nargs="+", default=list(DATASETS), choices=list(DATASETS))
    parser.add_argument("--force", action="store_true", help="rerun what is cached")
    parser.add_argument("--report-only", action="store_true", help="run nothing, report the caches")
    parser.add_argument("--write", action="store_true", help="write the raw_splits section of benchmarks/RESULTS.md")
    args = parser.parse_args(argv)
    command = " ".join(["python benchmarks/raw_splits.py", *(sys.argv[1:] if argv is None else argv)])
    if not args.report_only:
        run_splits(args, command)
    text = report(args, command)
    print(text)
    if args.write:
        write_section("raw_splits", text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
