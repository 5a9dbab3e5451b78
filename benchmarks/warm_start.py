"""The warm start before and after the beam search, on the bundled datasets.

    python benchmarks/warm_start.py --write
    python benchmarks/warm_start.py --datasets haberman mammo --c0 0.01 --repeat 1

Run it with OPENBLAS_NUM_THREADS=1 on a shared machine: multi-threaded BLAS on busy cores
makes the small matrix-vector products of both heuristics 10-20x slower.

For each dataset and C0 (paper settings: coefficients in [-10, 10], intercept in [-100, 100],
w_pos = 0.5, so the loss is the training error rate), the objective (``SlimProblem.objective``
of the returned integers), the training error and the seconds of:
- ``main``: the warm start of main before this change (benchmarks/warm_start_main.py),
  as ``--solver auto`` first calls it (``seconds=0``: rounding only);
- ``main+5s``: the same followed by its local search for up to 5 s (what auto runs next,
  ``LOCAL_SEARCH_SECONDS``; its result depends on the clock: one run);
- ``new``: the warm start of trainer/search/warm_start.py with ``seconds=0`` (rounding,
  beam search and local search to the end of its default work budget: deterministic).
Seconds are the median of ``--repeat`` runs (``main+5s``: one). ``optimum`` is the proven
optimum where benchmarks/RESULTS.md lists one (certify section), else "–".
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from datetime import datetime, timezone

import numpy as np
import warm_start_main
from certify import load, machine
from results import write_section
from scorecard.trainer.search.warm_start import warm_start

DATASETS = ("bankruptcy", "breastcancer", "haberman", "mammo", "heart", "mushroom", "spambase", "adult")
C0S = (0.001, 0.01, 0.025)
# Proven optima from the certify section of RESULTS.md (same settings).
OPTIMA = {("bankruptcy", 0.01): 0.024100, ("bankruptcy", 0.025): 0.041033,
          ("haberman", 0.01): 0.251885, ("haberman", 0.025): 0.264706,
          ("mammo", 0.01): 0.228124, ("mammo", 0.025): 0.251851,
          ("breastcancer", 0.01): 0.052235, ("breastcancer", 0.025): 0.082235,
          ("adult", 0.025): 0.240810}


def timed(run, repeat: int):
    """The model of ``run()`` (the last one) and the median seconds of ``repeat`` runs."""
    seconds, found = [], None
    for _ in range(repeat):
        start = time.monotonic()
        found = run()
        seconds.append(time.monotonic() - start)
    return found, statistics.median(seconds)


def cell(problem, found, seconds: float) -> str:
    error = problem.loss(found.coef, found.intercept)
    return f"{found.objective:.6f} / {100 * error:.2f}% / {seconds:.2f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--datasets", nargs="+", default=list(DATASETS))
    parser.add_argument("--c0", nargs="+", type=float, default=list(C0S))
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--write", action="store_true", help="rewrite the warm_start section of RESULTS.md")
    args = parser.parse_args()
    lines = ["| dataset, C0 | distinct rows x cols | optimum | main (s=0) | main+5s | new (s=0) | new - main+5s |",
             "|---|---|---|---|---|---|---|"]
    worse = []
    for name in args.datasets:
        for c0 in args.c0:
            problem, _, _ = load(name, c0)
            old, old_s = timed(lambda: warm_start_main.warm_start(problem, seconds=0.0), args.repeat)
            longer, longer_s = timed(lambda: warm_start_main.warm_start(problem, seconds=5.0), 1)
            new, new_s = timed(lambda: warm_start(problem, seconds=0.0), args.repeat)
            assert abs(new.objective - problem.objective(new.coef, new.intercept)) < 1e-12
            optimum = OPTIMA.get((name, c0))
            diff = new.objective - longer.objective
            if new.objective > min(old.objective, longer.objective) + 1e-9:
                worse.append(f"{name} {c0}")
            line = (f"| {name} {c0:g} | {problem.X.shape[0]} x {problem.n_columns} | "
                    f"{'–' if optimum is None else f'{optimum:.6f}'} | {cell(problem, old, old_s)} | "
                    f"{cell(problem, longer, longer_s)} | {cell(problem, new, new_s)} | {diff:+.6f} |")
            print(line, flush=True)
            lines.append(line)
    now = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    threads = os.environ.get("OPENBLAS_NUM_THREADS")
    command = (f"OPENBLAS_NUM_THREADS={threads} " if threads else "") + "python benchmarks/warm_start.py " + " ".join(sys.argv[1:])
    body = "\n".join([
        "## Warm start: beam search vs the previous heuristic (benchmarks/warm_start.py)",
        "",
        "Each cell: objective / training error / seconds (median of "
        f"{args.repeat} runs; `main+5s` one run). Paper settings (coefficients in [-10, 10], "
        "intercept in [-100, 100], w+ = w-). `main` is the warm start before the beam search as "
        "`--solver auto` first calls it (rounding only), `main+5s` the same plus up to 5 s of its "
        "local search (what auto ran next), `new` the beam-search warm start with `seconds=0` "
        "(deterministic work budget). `optimum`: proven, from the certify section. The machine "
        "was shared with other jobs: timings are noisy.",
        "",
        f"Run of {now}. Machine: {machine()}. Command: `{command.strip()}`",
        "",
        *lines,
        "",
        f"Cells where `new` is worse than `main` or `main+5s`: {', '.join(worse) if worse else 'none'}.",
    ])
    print(body.splitlines()[-1])
    if args.write:
        write_section("warm_start", body)


if __name__ == "__main__":
    np.seterr(all="ignore")
    main()
