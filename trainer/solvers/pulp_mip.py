"""Solving a PuLP integer program with a named backend, with statuses mapped in one place.

Backends: ``cbc`` (bundled with PuLP; the default), ``highs`` (highspy), ``cplex`` (CPLEX_PY)
and ``gurobi`` (GUROBI) when their Python packages import. Every solve runs until the
deadline of its :class:`.options.SolveOptions` (or its node limit, for a work limit), with
its thread count and fixed seed (same inputs, same seed -> same answer on the same machine).
:func:`solve` returns the solver's status, incumbent objective, proven lower bound and gap;
it raises :class:`InfeasibleError` when no feasible solution exists or none was found in time.
"""
from __future__ import annotations

import math
import os
import signal
import re
import sys
import tempfile
import time
import warnings
from dataclasses import dataclass
from typing import Optional

import pulp
from scorecard.runtime.errors import ConfigError, InfeasibleError, NoModelInTimeError

from .options import SolveOptions
from .progress import CbcLogWatcher, ProgressCallback, highs_event, relative_gap

BACKENDS = ("cbc", "highs", "cplex", "gurobi")


@dataclass(frozen=True)
class SolveResult:
    """What the backend reports: status ``optimal`` or ``time_limit`` (a feasible incumbent
    exists), its objective, the proven lower bound (None when the backend does not say), the
    relative gap and wall-clock seconds."""

    solver: str
    status: str
    objective: float
    bound: float | None
    gap: float | None
    seconds: float


def available(name: str) -> bool:
    """Whether the backend can run on this machine."""
    if name == "cbc":
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            return pulp.PULP_CBC_CMD(msg=False).available()
    if name == "highs":
        return pulp.HiGHS(msg=False).available()
    if name == "cplex":
        return pulp.CPLEX_PY(msg=False).available()
    if name == "gurobi":
        return pulp.GUROBI(msg=False).available()
    return False


def resolve(name: str) -> str:
    """The backend a solver name means (``auto`` picks CBC); ConfigError if unusable (the
    message names the solver, not a command-line flag: the API and the CLI both show it)."""
    name = "cbc" if name == "auto" else name
    if name not in BACKENDS:
        raise ConfigError(f"solver {name!r} is not available for this model; use one of {', '.join(BACKENDS)}")
    if not available(name):
        usable = [b for b in BACKENDS if available(b)]
        raise ConfigError(f"solver {name} is not installed on this machine; use one of {', '.join(usable)}")
    return name


def solve(lp: pulp.LpProblem, options: SolveOptions, *, gap_abs: float = 0.0, warm_start: bool = False,
          scale: float = 1.0, progress: Optional[ProgressCallback] = None) -> SolveResult:
    """Solve ``lp`` (a minimization) in place on ``options.solver`` until ``options.deadline``
    (and within ``options.max_nodes``); variable values are read with ``var.value()``.

    ``gap_abs`` is the absolute gap (in ``lp``'s objective units) at which a solution counts
    as optimal; ``scale`` is the factor the formulation multiplied its objective by, undone
    in the reported objective and bound (and progress events).
    """
    name = resolve(options.solver)
    start = time.monotonic()
    time_limit = options.deadline.limit()
    threads, seed, nodes = options.threads, options.seed, options.max_nodes
    if nodes is not None:
        threads = 1  # a node limit is reproducible with one thread only
    if name == "cbc":
        bound = _solve_cbc(lp, time_limit, threads, seed, gap_abs, warm_start, scale, progress, nodes)
    elif name == "highs":
        bound = _solve_highs(lp, time_limit, threads, seed, gap_abs, scale, progress, nodes)
    else:
        params = ({"mip.tolerances.absmipgap": gap_abs, "randomseed": seed} if name == "cplex"
                  else {"MIPGapAbs": gap_abs, "Seed": seed})
        if nodes is not None:
            params |= {"mip.limits.nodes": nodes} if name == "cplex" else {"NodeLimit": nodes}
        backend = pulp.CPLEX_PY if name == "cplex" else pulp.GUROBI
        backend(msg=False, timeLimit=time_limit, threads=threads, gapRel=0.0, warmStart=warm_start,
                **params).solve(lp)
        bound = _commercial_bound(lp, name)
    seconds = time.monotonic() - start
    status = _status(lp)
    objective = float(pulp.value(lp.objective)) / scale  # _status raised if there is no solution
    if bound is not None:  # backends report the bound without the objective's constant term
        bound += lp.objective.constant
    if status == "optimal":
        bound = objective if bound is None else min(bound / scale, objective)
    elif bound is not None:
        bound = min(bound / scale, objective)
    return SolveResult(solver=name, status=status, objective=objective, bound=bound,
                       gap=relative_gap(objective, bound), seconds=seconds)


def _status(lp: pulp.LpProblem) -> str:
    """PuLP's (status, sol_status) as ours; raise InfeasibleError when there is no solution."""
    if lp.sol_status == pulp.LpSolutionOptimal:
        return "optimal"
    if lp.sol_status == pulp.LpSolutionIntegerFeasible:
        return "time_limit"
    if lp.status == pulp.LpStatusInfeasible or lp.sol_status == pulp.LpSolutionInfeasible:
        raise InfeasibleError("no model satisfies the constraints; relax them (coefficient ranges, "
                              "--max-features, rate limits)")
    raise NoModelInTimeError("the time limit stopped the search before any feasible model was found; "
                             "give the solver more time or relax the constraints")


def stop_children() -> None:
    """End the child processes of this one (a CBC run PuLP started): a Ctrl-C from a terminal
    reaches them too, but a SIGINT sent to this process alone (``kill -INT``) would leave CBC
    running to its time limit after the command has exited. Linux's /proc; elsewhere nothing."""
    me = str(os.getpid())
    try:
        entries = os.listdir("/proc")
    except OSError:
        return
    for entry in entries:
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="ascii", errors="replace") as fh:
                parent = fh.read().rsplit(")", 1)[1].split()[1]
        except (OSError, IndexError):
            continue
        if parent == me:
            try:
                os.kill(int(entry), signal.SIGKILL)
            except OSError:
                pass


def _solve_cbc(lp, time_limit, threads, seed, gap_abs, warm_start, scale, progress, nodes=None):
    """Run CBC with its log in a temp file (tailed for progress); returns its lower bound."""
    fd, log_path = tempfile.mkstemp(prefix="scorecard-cbc-", suffix=".log")
    os.close(fd)
    # randomCbcSeed/randomSeed 0 would mean "use the clock": shift the user's seed by one.
    options = [f"randomCbcSeed {seed + 1}", f"randomSeed {seed + 1}"]
    with warnings.catch_warnings():  # PuLP 3.3 deprecates the bundled CBC it still ships
        warnings.simplefilter("ignore", DeprecationWarning)
        cmd = pulp.PULP_CBC_CMD(msg=False, timeLimit=time_limit, threads=threads if threads > 1 else None,
                                gapRel=0.0, gapAbs=gap_abs, warmStart=warm_start, logPath=log_path,
                                options=options, maxNodes=nodes)
    try:
        with CbcLogWatcher(log_path, progress, scale, offset=lp.objective.constant):
            try:
                cmd.solve(lp)
            except KeyboardInterrupt:  # Ctrl-C sent to this process alone: CBC would go on without it
                stop_children()
                raise
        with open(log_path, encoding="utf-8", errors="replace") as fh:
            log = fh.read()
    finally:
        os.unlink(log_path)
    return _cbc_number(log, "Lower bound")


def _cbc_number(log: str, label: str) -> float | None:
    """A number from CBC's final summary (``Lower bound:``, ``Objective value:``)."""
    found = re.findall(rf"^{label}:\s+(\S+)", log, flags=re.MULTILINE)
    if not found:
        return None
    try:
        value = float(found[-1])
    except ValueError:
        return None
    return value if math.isfinite(value) and abs(value) < 1e30 else None


# HiGHS 1.16's sub-MIP heuristics can hang: RINS's presolve of its sub-MIP looped in
# strengthenInequalities for 15 minutes past a 60 s limit on heart (C0 0.05, a paper-table
# fold); presolve does not check the time limit. Without them HiGHS keeps its other
# heuristics, and the incumbent we pass it already comes from our own local search.
HIGHS_NO_SUB_MIP = {"mip_heuristic_run_rins": False, "mip_heuristic_run_rens": False,
                    "mip_heuristic_run_root_reduced_cost": False}


def _solve_highs(lp, time_limit, threads, seed, gap_abs, scale, progress, nodes=None):
    """Run HiGHS through highspy; returns its MIP dual bound."""
    import highspy

    start = time.monotonic()
    callback_tuple = None
    activate = None
    if progress is not None:
        def on_event(kind, message, data_out, data_in, user_data):
            progress(highs_event(start, data_out.mip_primal_bound, data_out.mip_dual_bound, scale,
                                 lp.objective.constant))

        callback_tuple = (on_event, None)
        activate = [highspy.cb.HighsCallbackType.kCallbackMipImprovingSolution,
                    highspy.cb.HighsCallbackType.kCallbackMipLogging]
    backend = _QuietHiGHS(msg=False, timeLimit=time_limit, threads=threads, gapRel=0.0, gapAbs=gap_abs,
                         callbackTuple=callback_tuple, callbacksToActivate=activate,
                         random_seed=seed, mip_feasibility_tolerance=1e-9, **HIGHS_NO_SUB_MIP,
                         **({} if nodes is None else {"mip_max_nodes": nodes}))
    backend.solve(lp)
    info = lp.solverModel.getInfo()
    bound = float(info.mip_dual_bound)
    return bound if math.isfinite(bound) and abs(bound) < 1e30 else None


class _QuietHiGHS(pulp.HiGHS):
    """pulp's HiGHS without the banner highspy prints on stdout when a model is created
    (stdout may be the user's pipe)."""

    def createAndConfigureSolver(self, lp):
        sys.stdout.flush()
        saved = os.dup(1)
        try:
            with open(os.devnull, "w") as devnull:
                os.dup2(devnull.fileno(), 1)
                super().createAndConfigureSolver(lp)
            import highspy

            # HiGHS keeps one thread pool per process, sized by the first run: a run asking for
            # another number of threads (the cutting planes' master uses HiGHS's default) fails
            # at once. Start each solve from a fresh pool (see convex.cutting_planes.quiet_highs).
            highspy.Highs.resetGlobalScheduler(True)
        finally:
            os.dup2(saved, 1)
            os.close(saved)

    def findSolutionValues(self, lp):
        """PuLP 3.3 has no entry for kSolutionLimit, HiGHS's status when ``mip_max_nodes`` (a
        work limit) stops it (KeyError): read it as the iteration limit it is, so the
        incumbent is kept with status ``time_limit``."""
        import highspy

        model = lp.solverModel
        if model.getModelStatus() != highspy.HighsModelStatus.kSolutionLimit:
            return super().findSolutionValues(lp)
        lp.solverModel = _NodeLimitStatus(model)
        try:
            return super().findSolutionValues(lp)
        finally:
            lp.solverModel = model


class _NodeLimitStatus:
    """A HiGHS model that reports kIterationLimit instead of kSolutionLimit (see
    ``_QuietHiGHS.findSolutionValues``); everything else is the model's."""

    def __init__(self, model):
        self._model = model

    def getModelStatus(self):
        import highspy

        return highspy.HighsModelStatus.kIterationLimit

    def __getattr__(self, name):
        return getattr(self._model, name)


def _commercial_bound(lp, name: str) -> float | None:
    """The best bound CPLEX or Gurobi proved, when their model object says."""
    model = getattr(lp, "solverModel", None)
    if model is None:
        return None
    try:
        bound = model.solution.MIP.get_best_objective() if name == "cplex" else model.ObjBound
    except Exception:  # the backend has no bound to give (e.g. stopped before the first node)
        return None
    return float(bound) if math.isfinite(bound) else None
