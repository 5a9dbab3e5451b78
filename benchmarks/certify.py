"""Time to a proven optimum, per dataset and backend, with CPLEX as the reference.

    python benchmarks/certify.py --time-limit 60 --write
    python benchmarks/certify.py --datasets haberman mammo --c0 0.01 --backends cplex auto

Backends (each from the same SlimProblem that ``scorecard train`` builds; paper settings:
coefficients in [-10, 10], intercept in [-100, 100], w_pos = 0.5):
- ``cplex``: CPLEX (Community Edition here) on the textbook IP the original SLIM code
  builds (paper Eq. 3.2: one loss binary per data row, M_i from the coefficient box, L0 and
  L1 rows per coefficient; tolerances at machine epsilon as slim-python sets them), with
  the margin placed as the runtime's rule (score >= gamma for positives, <= 0 for negatives)
  so it solves exactly our problem. CE refuses models over 1000 variables or constraints:
  those cells read "n/a (CE size limit)".
- ``cplex-grouped``: the same IP on distinct rows (one loss binary per row and label,
  weighted), which fits CE on mammo.
- ``auto``: our default path (``--solver auto``: warm start, exhaustive search, CP-SAT/HiGHS).
- ``enumerate``, ``cpsat``: that backend alone, from the millisecond warm start.
- ``highs``, ``cbc``: ``--solver highs`` / ``--solver cbc`` (the PuLP formulation of
  ``formulation/slim.py`` after its local search).
Seconds are wall-clock from the problem in memory to the certificate (model building
included), the median of ``--repeat`` runs when a run takes under 5 s. The ratio ours/CPLEX
divides our total time by CPLEX's solve time alone, without its model building (the
comparison least favourable to us), against the faster of the two CPLEX variants; "< r"
when CPLEX hit the time limit. ">T" marks a run stopped by the time limit T, with its
best objective. Every objective is recomputed
from the returned integers with ``SlimProblem.objective``.
"""
from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass

import numpy as np
from results import section, write_section
from scorecard.trainer.data.families import design_for
from scorecard.trainer.data.prepare import prepare, read_table
from scorecard.trainer.options.config import TrainConfig
from scorecard.trainer.problem.constrained import constrained_problem
from scorecard.trainer.problem.slim import SlimProblem
from scorecard.trainer.search import exhaustive
from scorecard.trainer.search.warm_start import warm_start
from scorecard.trainer.solvers import auto, cpsat
from scorecard.trainer.solvers.fit import fit_problem
from scorecard.trainer.solvers.mip import solve_mip
from scorecard.trainer.solvers.options import Deadline, SolveOptions
from scorecard.trainer.solvers.pulp_mip import available

DATASETS = ("bankruptcy", "breastcancer", "haberman", "mammo", "heart", "mushroom", "spambase", "adult")
BACKENDS = ("cplex", "cplex-grouped", "auto", "enumerate", "cpsat", "highs", "cbc")
DATA_DIR = os.environ.get("SCORECARD_DATASETS", os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "datasets"))
HEADING = "## Time to a proven optimum (benchmarks/certify.py)"
CE_LIMIT = 1000


@dataclass(frozen=True)
class Run:
    """One backend on one problem: status, true objective, seconds (total and solver-only),
    the seconds to the first feasible model when the backend reports it, and the proven
    lower bound when it stopped short of optimality."""

    status: str
    objective: float | None
    seconds: float | None
    solve_seconds: float | None = None
    first_model: float | None = None
    bound: float | None = None


def load(name: str, c0: float) -> tuple[SlimProblem, TrainConfig, np.ndarray]:
    """The problem ``scorecard train`` builds for a shared dataset (first column = outcome),
    the config, and the data labels (+1/-1) per data row."""
    path = os.path.join(DATA_DIR, f"{name}.csv")
    frame = read_table(path)
    data = prepare(frame, frame.columns[0], 1, "null", path)
    config = TrainConfig(c0=c0, coef_min=-10, coef_max=10, intercept_min=-100, intercept_max=100, numeric="linear")
    return constrained_problem(design_for(data, config), data, config), config, data.y


def run_cplex(problem: SlimProblem, y: np.ndarray, limit: float, threads: int, grouped: bool,
              paper_margin: bool = False) -> Run:
    """The textbook SLIM IP in CPLEX (see the module doc); with ``paper_margin`` the margin
    is the paper's gamma = 0.1 where ours is inexact (real-valued data such as heart): a
    slightly different problem, numerically kinder to CPLEX than our gamma = 1e-4."""
    import cplex

    if grouped:
        rows = np.concatenate([np.flatnonzero(problem.pos_w > 0), np.flatnonzero(problem.neg_w > 0)])
        labels = np.concatenate([np.ones(int((problem.pos_w > 0).sum())), -np.ones(int((problem.neg_w > 0).sum()))])
        weights = np.concatenate([problem.pos_w[problem.pos_w > 0], problem.neg_w[problem.neg_w > 0]])
        X = problem.X[rows]
    else:
        X, labels = problem.X[problem.row_of], np.where(y > 0, 1.0, -1.0)
        weights = np.where(labels > 0, problem.pos_w.sum() / max(1, (labels > 0).sum()),
                           problem.neg_w.sum() / max(1, (labels < 0).sum()))
    n, p = X.shape
    if 3 * p + 1 + n > CE_LIMIT or n + 4 * p > CE_LIMIT:
        return Run("n/a (CE size limit)", None, None)
    start = time.monotonic()
    lo, hi = problem.coef_lo.astype(float), problem.coef_hi.astype(float)
    rlo = np.r_[problem.intercept_lo, lo]
    rhi = np.r_[problem.intercept_hi, hi]
    XY = np.c_[np.ones(n), X] * labels[:, None]
    gamma = 0.1 if paper_margin and not problem.gamma_exact else problem.gamma
    margin = np.where(labels > 0, gamma, 0.0)
    big_m = np.maximum(-XY * rlo, -XY * rhi).sum(axis=1) + margin
    m = cplex.Cplex()
    for stream in (m.set_log_stream, m.set_results_stream, m.set_warning_stream, m.set_error_stream):
        stream(None)
    rho = [f"rho_{j}" for j in range(p + 1)]
    m.variables.add(obj=[0.0] * (p + 1), lb=rlo.tolist(), ub=rhi.tolist(), types="I" * (p + 1), names=rho)
    m.variables.add(obj=problem.c0.tolist(), lb=[0] * p, ub=[1] * p, types="B" * p, names=[f"a_{j}" for j in range(p)])
    m.variables.add(obj=[problem.epsilon] * p, lb=[0] * p, ub=np.maximum(-lo, hi).tolist(), types="C" * p,
                    names=[f"b_{j}" for j in range(p)])
    m.variables.add(obj=weights.tolist(), lb=[0] * n, ub=[1] * n, types="B" * n, names=[f"e_{i}" for i in range(n)])
    expr, rhs = [], []
    for i in range(n):
        expr.append(cplex.SparsePair(ind=rho + [f"e_{i}"], val=XY[i].tolist() + [float(big_m[i])]))
        rhs.append(float(margin[i]))
    for j in range(p):
        r, a, b = f"rho_{j + 1}", f"a_{j}", f"b_{j}"
        expr += [cplex.SparsePair([r, a], [1.0, -lo[j]]), cplex.SparsePair([r, a], [-1.0, hi[j]]),
                 cplex.SparsePair([r, b], [-1.0, 1.0]), cplex.SparsePair([r, b], [1.0, 1.0])]
        rhs += [0.0] * 4
    m.linear_constraints.add(lin_expr=expr, senses="G" * len(expr), rhs=rhs)
    eps = float(np.finfo(float).eps)
    m.parameters.threads.set(threads)
    m.parameters.timelimit.set(limit)
    m.parameters.randomseed.set(0)
    m.parameters.mip.tolerances.mipgap.set(eps)
    m.parameters.mip.tolerances.absmipgap.set(eps)
    m.parameters.mip.tolerances.integrality.set(eps)
    solve_start = time.monotonic()
    try:
        m.solve()
    except cplex.exceptions.CplexError as exc:
        if "1016" in str(exc):
            return Run("n/a (CE size limit)", None, None)
        raise
    end = time.monotonic()
    status = "optimal" if m.solution.get_status() in (101, 102) else "time_limit"
    values = np.round(m.solution.get_values(rho)).astype(np.int64)
    objective = problem.objective(values[1:], int(values[0]))
    return Run(status, objective, end - start, end - solve_start, bound=m.solution.MIP.get_best_objective())


def run_ours(name: str, problem: SlimProblem, config: TrainConfig, limit: float, threads: int) -> Run:
    """One of our backends from the problem in memory."""
    first: list[float] = []
    start = time.monotonic()

    def seen(event) -> None:
        if event.incumbent is not None and not first:
            first.append(time.monotonic() - start)

    options = SolveOptions(solver=name, deadline=Deadline.after(limit, start), threads=threads, seed=config.seed)
    if name == "auto":
        backend = options.using("highs" if available("highs") else "cbc")
        out = auto.solve(problem, options, progress=seen,
                         mip=lambda pr, inc, opts: solve_mip(pr, inc, backend.until(opts.deadline)))
        best, status, bound = out.incumbent, out.status, out.lower_bound
    elif name == "enumerate":
        incumbent = warm_start(problem, seconds=0.0)
        first.append(time.monotonic() - start)
        plan = exhaustive.plan(problem, incumbent.objective, seconds=limit, conflicts=True)
        if plan is None:
            return Run("n/a (no finite plan)", None, None, None, first[0])
        result = exhaustive.search(problem, incumbent, plan, deadline=start + limit)
        best, status, bound = result.incumbent, result.status, result.lower_bound
    elif name == "cpsat":
        incumbent = warm_start(problem, seconds=0.0)
        first.append(time.monotonic() - start)
        result = cpsat.solve(problem, incumbent, options)
        if result is None:
            return Run("n/a (encoding refused)", None, None, None, first[0])
        best, status, bound = result.incumbent, result.status, result.lower_bound
    else:
        coef, intercept, result = fit_problem(problem, options, progress=seen)
        objective = problem.objective(coef, intercept)
        return Run(result.status, objective, time.monotonic() - start, result.seconds, first[0] if first else None,
                   result.bound)
    return Run(status, problem.objective(best.coef, best.intercept), time.monotonic() - start, None,
               first[0] if first else None, bound)


def machine() -> str:
    """CPU model and counts from lscpu (the numbers depend on them)."""
    try:
        text = subprocess.run(["lscpu"], capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return platform.processor() or platform.machine()
    fields = dict(line.split(":", 1) for line in text.splitlines() if ":" in line)
    keep = ("Model name", "CPU(s)", "Thread(s) per core", "Core(s) per socket", "Hypervisor vendor")
    return ", ".join(f"{k}: {fields[k].strip()}" for k in keep if k in fields)


def cell(runs: list[Run], limit: float, solve_only: bool = False) -> str:
    """Median seconds (">" when the time limit stopped it; with ``solve_only`` the solve
    alone in parentheses) and the objective."""
    if runs[0].seconds is None:
        return runs[0].status
    seconds = statistics.median(r.seconds for r in runs)
    run = runs[0]
    shown = f"{seconds:.2f}" if run.status == "optimal" else f">{limit:g}"
    if solve_only and run.status == "optimal" and run.solve_seconds is not None:
        shown += f" (solve {statistics.median(r.solve_seconds for r in runs):.2f})"
    suffix = ""
    if run.status != "optimal":
        suffix = f" ({run.status}" + (f", bound {run.bound:.4f}" if run.bound is not None else "") + ")"
    return f"{shown}, {run.objective:.6f}{suffix}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--datasets", nargs="+", default=list(DATASETS), choices=DATASETS)
    parser.add_argument("--c0", nargs="+", type=float, default=[0.01, 0.025])
    parser.add_argument("--problems", nargs="+", metavar="DATASET:C0",
                        help="run these pairs only (instead of every --datasets x --c0)")
    parser.add_argument("--backends", nargs="+", default=list(BACKENDS), choices=BACKENDS)
    parser.add_argument("--time-limit", type=float, default=60.0, help="seconds per run")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=1, help="runs per cell that proves optimality fast (median)")
    parser.add_argument("--paper-margin", action="store_true",
                        help="CPLEX with the paper's gamma = 0.1 on real-valued data (see run_cplex)")
    parser.add_argument("--write", action="store_true", help="append the table to the certify section of benchmarks/RESULTS.md")
    args = parser.parse_args(argv)

    header = ["dataset, C0", *args.backends, "ours (auto) / CPLEX", "auto: first model (s)"]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    pairs = [(name, c0) for name in args.datasets for c0 in args.c0]
    if args.problems:
        pairs = [(text.split(":")[0], float(text.split(":")[1])) for text in args.problems]
    for name, c0 in pairs:
        problem, config, y = load(name, c0)
        row, times = [f"{name} {c0:g}"], {}
        first, cplex_ran = None, False
        for backend in args.backends:
            runs = []
            for attempt in range(max(1, args.repeat)):
                if backend.startswith("cplex"):
                    run = run_cplex(problem, y, args.time_limit, args.threads, backend == "cplex-grouped",
                                    args.paper_margin)
                else:
                    run = run_ours(backend, problem, config, args.time_limit, args.threads)
                runs.append(run)
                if run.status != "optimal" or (run.seconds or 0) > 5:
                    break
            row.append(cell(runs, args.time_limit, solve_only=backend.startswith("cplex")))
            ok = [r for r in runs if r.status == "optimal"]
            if ok:
                solver_time = [r.solve_seconds if r.solve_seconds is not None else r.seconds for r in ok]
                times[backend] = statistics.median(solver_time)
            if backend == "auto" and any(r.first_model is not None for r in runs):
                first = statistics.median(r.first_model for r in runs if r.first_model is not None)
            if backend.startswith("cplex") and runs[0].seconds is not None:
                cplex_ran = True
            print(f"{name} {c0:g} {backend}: {row[-1]}", file=sys.stderr, flush=True)
        reference = min((times[b] for b in ("cplex", "cplex-grouped") if b in times), default=None)
        ours = times.get("auto")
        ratio = "–"
        if ours is not None and reference:
            ratio = f"{ours / reference:.3f}"
        elif ours is not None and cplex_ran:  # CPLEX hit the time limit: the ratio is below this
            ratio = f"< {ours / args.time_limit:.3f}"
        row += [ratio, f"{first:.3f}" if first is not None else "–"]
        lines.append("| " + " | ".join(row) + " |")
    table = "\n".join(lines)
    print(table)
    if args.write:
        _write(args, table)
    return 0


def _write(args: argparse.Namespace, table: str) -> None:
    """Append this run (machine, command, date, table) inside the certify markers."""
    command = "python benchmarks/certify.py " + " ".join(sys.argv[1:])
    stamp = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    block = f"\n### Run of {stamp}\n\nMachine: {machine()}\n\nCommand: `{command}`\n\n{table}\n"
    write_section("certify", (section("certify") or HEADING) + "\n" + block)


if __name__ == "__main__":
    raise SystemExit(main())
