"""Data reduction (paper Section 4.2, Algorithm 2; trainer/reduce.py): rows removed, same optimum.

    python benchmarks/reduction.py             # prints both tables
    python benchmarks/reduction.py --write     # ... and writes the section of benchmarks/RESULTS.md

1. Each dataset trained by ``train()`` (the ``scorecard train`` pipeline) directly and with
   ``reduce=True`` (``--reduce``, the paper's width eps(f^) = Z(f^) - Z~(f~*)): objectives (the
   true objective recomputed from the integers), statuses, and ``training.params.reduction``:
   rows Algorithm 2 removed (Stage 2), rows left out of the final solve, rows the check put
   back, reduced solves, seconds of Algorithm 2 (``reduction.seconds``: Stage 1 + Stage 2).
   Total seconds are wall-clock around ``train()``, the median of ``--repeat`` runs.
2. The paper's bankruptcy figure: share of rows removed against the level-set width eps
   (``--reduce-width``), from eps_min = Z~(f*) - Z~(f~*) (the hinge proxy at the direct
   optimum f*, with alpha and the hinge columns free, minus the proxy optimum) to eps_max =
   the largest finite Stage-2 variant value minus Z~(f~*) over the candidate rows (above it no
   row leaves). Each width is one ``train(reduce=True, reduce_width=eps)``; its objective must
   equal the direct optimum. The Stage-2 count of each run is checked against the count the
   per-row variant values predict (each candidate's variant solved to optimality).

Settings: coefficients in [-10, 10], intercept in [-100, 100], solver auto, time limit 120 s,
the paper's class weights for haberman (w+ = N-/N, benchmarks/paper_table.py). Data:
``datasets/`` (outcome = first column, positive 1). Not part of the test suite.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

import numpy as np
from paper_table import (  # benchmarks/paper_table.py: same data, weights, header
    class_weights,
    load,
    machine,
)
from results import write_section
from scorecard.trainer.data.families import design_for
from scorecard.trainer.options.config import TrainConfig
from scorecard.trainer.problem.constrained import constrained_problem
from scorecard.trainer.search.warm_start import warm_start
from scorecard.trainer.solvers.fit import fit_problem
from scorecard.trainer.solvers.options import SolveOptions
from scorecard.trainer.solvers.reduce import LP_SLACK, HingeProxy, majority
from scorecard.trainer.train import train

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "RESULTS.md"
CASES = (("bankruptcy", 0.01), ("haberman", 0.01), ("mammo", 0.01), ("breastcancer", 0.025))
FIGURE = ("bankruptcy", 0.01)
TOLERANCE = 1e-12


def config_for(name: str, c0: float, data, time_limit: float) -> TrainConfig:
    return TrainConfig(c0=c0, coef_min=-10, coef_max=10, intercept_min=-100, intercept_max=100, solver="auto",
                       time_limit=time_limit, w_pos=class_weights(data, name)[0], numeric="linear")


def timed_train(data, config: TrainConfig):
    start = time.perf_counter()
    model = train(data, config)
    return model, time.perf_counter() - start


def same(a: float, b: float) -> str:
    """'exact' (float equality), 'within 1e-12', or 'NO' with the difference."""
    if a == b:
        return "exact"
    if abs(a - b) <= TOLERANCE:
        return f"within {TOLERANCE:g}"
    return f"NO ({a - b:+.3g})"


def stage2(info: dict) -> int:
    """Rows Stage 2 removed: those out of the final solve plus those the check put back."""
    return info["rows_removed"] + info["rows_put_back"]


def comparison(args: argparse.Namespace) -> tuple[list[str], dict]:
    """Table 1: direct against reduced training per dataset; also the direct optima by name."""
    lines = ["| dataset | C0 | rows (distinct) | objective direct | objective reduced | equal? | status direct | "
             "status reduced | width eps | Stage-2 LPs | removed by Stage 2 | out of final solve (distinct) | "
             "put back | reduced solves | Alg. 2 s | total s direct | total s reduced |",
             "|---|---:|---:|---:|---:|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    optima, notes = {}, []
    for name, c0 in CASES:
        data = load(name)
        config = config_for(name, c0, data, args.time_limit)
        distinct = len(constrained_problem(design_for(data, config), data, config).X)
        direct, reduced = [], []
        for _ in range(args.repeat):
            direct.append(timed_train(data, config))
            reduced.append(timed_train(data, config.with_options(reduce=True)))
        objectives = {m.training.objective for m, _ in direct}, {m.training.objective for m, _ in reduced}
        d, r = direct[0][0].training, reduced[0][0].training
        info = r.params["reduction"]
        optima[name] = d.objective
        varied = "" if all(len(o) == 1 for o in objectives) else " (varied across repeats!)"
        lines.append(
            f"| {name} | {c0:g} | {len(data.y)} ({distinct}) | {d.objective:.12g} | {r.objective:.12g} | "
            f"{same(d.objective, r.objective)}{varied} | {d.status} | {r.status} | {info['width']:.6g} | "
            f"{info['variants']} | {stage2(info)} | {info['rows_removed']} ({info['distinct_rows_removed']}) | "
            f"{info['rows_put_back']} | {info['solves']} | "
            f"{statistics.median(m.training.params['reduction']['seconds'] for m, _ in reduced):.3f} | "
            f"{statistics.median(s for _, s in direct):.2f} | {statistics.median(s for _, s in reduced):.2f} |")
        print(lines[-1], file=sys.stderr, flush=True)
        if info["width"] == 0 and info["proxy_optimum"] is not None:
            notes.append(f"{name}: width 0 because the proxy optimum Z~(f~*) = {info['proxy_optimum']:.6g} exceeds "
                         f"Z(f^) of the warm start (the direct optimum is {d.objective:.6g}), so eps(f^) < 0")
        if info["unchecked"]:
            notes.append(f"{name}: Stage 2 ran out of time with {info['unchecked']} candidate rows unchecked (kept)")
        if "reason" in info:
            notes.append(f"{name}: {info['reason']}")
    if notes:
        lines += ["", *(f"- {note}." for note in notes)]
    return lines, optima


def proxy_at(problem, coef: np.ndarray, intercept: int) -> float:
    """Z~(f): the hinge proxy LP with ``lam`` fixed to ``f`` (alpha, beta, hinge columns free)."""
    proxy = HingeProxy(problem)
    lam = np.concatenate([[intercept], coef]).astype(np.float64)
    proxy.h.changeColsBounds(len(lam), proxy.lam, lam, lam)
    value, _ = proxy.solve()
    return value


def variant_values(problem, warm) -> tuple[float, np.ndarray, np.ndarray]:
    """Z~(f~*), the candidate distinct rows of Stage 2 (as ``reduce_problem`` picks them for the
    warm start ``warm``), and each candidate's variant value solved to optimality."""
    proxy = HingeProxy(problem)
    best, lam = proxy.solve()
    labels = np.where(proxy.Xb @ lam > 0, 1, -1)
    start = np.where(problem.scores(warm.coef, warm.intercept) > 0, 1, -1)
    candidates = np.flatnonzero((labels == majority(problem)) & (start == labels))
    values = np.array([proxy.variant(k, int(labels[k]), np.inf)[0] for k in candidates])
    return best, candidates, values


def figure(args: argparse.Namespace, direct_optimum: float | None) -> tuple[list[str], list[str]]:
    """Table 2: the bankruptcy curve; returns the text above the table and the table."""
    name, c0 = FIGURE
    data = load(name)
    config = config_for(name, c0, data, args.time_limit)
    problem = constrained_problem(design_for(data, config), data, config)
    coef, intercept, result = fit_problem(problem, SolveOptions.of(config))
    optimum = problem.objective(coef, intercept)
    warm = warm_start(problem, seconds=min(5.0, 0.1 * config.time_limit))
    best, candidates, values = variant_values(problem, warm)
    at_optimum = proxy_at(problem, coef, intercept)
    eps_min = at_optimum - best
    finite = values[np.isfinite(values)]
    eps_max = float(finite.max() - best) if len(finite) else 0.0
    counts = np.bincount(problem.row_of, minlength=len(problem.X))
    n = len(problem.row_of)
    paper_width = max(problem.objective(warm.coef, warm.intercept) - best, 0.0)

    def predicted(width: float) -> int:
        return int(counts[candidates[values > best + width + LP_SLACK]].sum())

    text = [f"Direct optimum Z(f*) = {optimum:.12g} ({result.status}); proxy optimum Z~(f~*) = {best:.9g}; "
            f"Z~(f*) = {at_optimum:.9g}, so eps_min = {eps_min:.6g}; eps_max = {eps_max:.6g} (largest finite Stage-2 "
            f"variant value minus Z~(f~*), over {len(candidates)} candidate distinct rows"
            + (f"; {int((~np.isfinite(values)).sum())} variants infeasible, removed at every width" if
               len(finite) < len(values) else "")
            + f"). The default width eps(f^) = Z(f^) - Z~(f~*) = {paper_width:.6g} for the warm start f^ "
            f"(Z(f^) = {problem.objective(warm.coef, warm.intercept):.6g}) removes {predicted(paper_width)} of {n} rows."]
    if direct_optimum is not None and direct_optimum != optimum:
        text.append(f"**Note:** `train()` gave {direct_optimum!r} and `fit_problem` {optimum!r} for the direct optimum.")
    lines = ["| width eps | rows removed by Stage 2 | share | predicted | out of final solve | put back | "
             "reduced solves | objective | = direct? | status | total s |",
             "|---:|---:|---:|---:|---:|---:|---:|---:|---|---|---:|"]
    for width in np.linspace(eps_min, eps_max, args.widths):
        width = float(width)
        model, seconds = timed_train(data, config.with_options(reduce=True, reduce_width=width))
        t = model.training
        info = t.params["reduction"]
        removed = stage2(info)
        expected = predicted(width)
        lines.append(f"| {width:.6g} | {removed} | {removed / n:.1%} | {expected}{'' if expected == removed else ' (!)'} | "
                     f"{info['rows_removed']} | {info['rows_put_back']} | {info['solves']} | {t.objective:.12g} | "
                     f"{same(t.objective, optimum)} | {t.status} | {seconds:.2f} |")
        print(lines[-1], file=sys.stderr, flush=True)
    return text, lines



def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--time-limit", type=float, default=120.0, help="seconds per training (default 120)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per cell of table 1 (median time)")
    parser.add_argument("--widths", type=int, default=8, help="widths of the bankruptcy curve, eps_min..eps_max")
    parser.add_argument("--write", action="store_true", help=f"write the reduction section of {RESULTS}")
    args = parser.parse_args(argv)
    command = " ".join(["python benchmarks/reduction.py", *(sys.argv[1:] if argv is None else argv)])
    started = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    where = f"{machine()}, load average {os.getloadavg()[0]:.1f} at the start"
    clock = time.perf_counter()
    table, optima = comparison(args)
    text, curve = figure(args, optima.get(FIGURE[0]))
    elapsed = time.perf_counter() - clock
    lines = [
        "## Data reduction (Section 4.2, Algorithm 2; benchmarks/reduction.py)",
        "",
        f"{started}; {where}; {elapsed:.0f} s in all.",
        f"Command: `{command}`",
        "",
        "Each dataset trained by `train()` directly and with `reduce=True` (hinge proxy, the paper's width "
        "eps(f^) = Z(f^) - Z~(f~*), at least 0): coefficients in [-10, 10], intercept in [-100, 100], solver auto, "
        f"time limit {args.time_limit:g} s; haberman with the paper's class weights w+ = N-/N, w- = N+/N. Objectives "
        "are recomputed from the integers; `equal?` says whether they are equal as floats (`exact`) or only within "
        f"{TOLERANCE:g}. Stage 2 removes rows, the check puts back those the reduced optimum mislabels and solves "
        "again; `out of final solve` = removed - put back. `Alg. 2 s` is Stage 1 + Stage 2 (`reduction.seconds`). "
        f"Times are medians of {args.repeat} runs, wall-clock around `train()`.",
        "",
        *table,
        "",
        f"### Bankruptcy (C0 {FIGURE[1]:g}): share of rows removed against the width eps (the paper's Figure)",
        "",
        *text,
        "One `train(reduce=True, reduce_width=eps)` per width; `predicted` counts the rows whose variant, solved to "
        "optimality, exceeds Z~(f~*) + eps (+ 1e-7), (!) where it differs from what Stage 2 removed.",
        "",
        *curve,
    ]
    print("\n".join(lines))
    if args.write:
        write_section("reduction", "\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
