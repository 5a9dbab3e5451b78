"""What a backend is told about a solve: ``SolveOptions`` (solver, deadline, threads, seed, work).

Built once per training run from the TrainConfig (``SolveOptions.of``, in ``train.py``) and
passed down; no backend reads the TrainConfig. The ``Deadline`` is one instant on the
monotonic clock for the whole command: every phase (warm start, exhaustive search, CP-SAT,
the MIP, data reduction's rounds, the conflict search, cutting planes, each fold of ``cv``)
gets only what remains of it, never a budget of its own.

``work_limit`` (``--work-limit``) makes a solve reproducible whatever the machine's load: CP-SAT
stops after that many seconds of *deterministic* time (one worker, fixed seed), CBC and HiGHS
after ``NODES_PER_WORK`` branch-and-bound nodes per unit (one thread), and each heuristic that
otherwise runs by the clock gets a :class:`Phase` of work instead (:meth:`SolveOptions.phase`);
the deadline stays as a safety net. A solve stopped by its work limit reports status
``time_limit`` (the model file's statuses are ``optimal``, ``time_limit``, ``iteration_limit``
and ``interrupted``).
"""
from __future__ import annotations

import math
import os
import time
from dataclasses import dataclass, field, replace

#: The least time limit handed to a backend that refuses 0 (CP-SAT, HiGHS, CBC): a solve
#: past the deadline stops at once instead of getting a second of its own.
TINY = 0.01
#: Branch-and-bound nodes of CBC/HiGHS per unit of ``work_limit``.
NODES_PER_WORK = 100
#: Kept back from a training run's deadline for what follows the solve (the model's risk
#: table and golden rows): FINISH_SECONDS plus FINISH_SHARE of the time left, at most
#: FINISH_MAX seconds. The command line keeps EXIT_SECONDS more for writing and exiting.
FINISH_SECONDS = 0.05
FINISH_SHARE = 0.03
FINISH_MAX = 2.0
EXIT_SECONDS = 0.25


def finish_margin(seconds: float) -> float:
    """Seconds kept back, out of ``seconds`` left, for the work after the solve."""
    return min(FINISH_MAX, FINISH_SECONDS + FINISH_SHARE * seconds, 0.5 * seconds)


@dataclass(frozen=True)
class Deadline:
    """An instant on ``time.monotonic()``'s clock by which the whole command must end."""

    at: float

    @classmethod
    def after(cls, seconds: float, start: float | None = None) -> "Deadline":
        """``seconds`` after ``start`` (a ``time.monotonic()`` reading; default: now)."""
        return cls((time.monotonic() if start is None else start) + seconds)

    @classmethod
    def never(cls) -> "Deadline":
        return cls(math.inf)

    def remaining(self) -> float:
        """Seconds left, 0 once expired."""
        return max(0.0, self.at - time.monotonic())

    def expired(self) -> bool:
        return time.monotonic() >= self.at

    def limit(self) -> float:
        """The seconds left as a backend's own time limit: at least TINY (backends refuse 0)."""
        return max(TINY, self.remaining())

    def part(self, fraction: float, work_limit: float | None) -> "Deadline":
        """``fraction`` of the seconds left, from now; under a work limit, which bounds the work
        itself, all of them: the clock is then a safety net only, never a share that ends a
        step early on a busy machine."""
        return self if work_limit is not None else self.within(fraction * self.remaining())

    def within(self, seconds: float) -> "Deadline":
        """This deadline or ``seconds`` from now, whichever comes first."""
        return Deadline(min(self.at, time.monotonic() + max(0.0, seconds)))

    def earlier(self, seconds: float) -> "Deadline":
        """``seconds`` before this deadline (time kept back for what follows the solve)."""
        return Deadline(self.at - seconds)


@dataclass(frozen=True)
class Phase:
    """The budget of a heuristic phase that otherwise runs by the clock (local search, listing
    exhaustive search's plan): ``seconds`` on the clock, and ``work`` in seconds' worth of work,
    which the phase turns into a count of its own with its rate, the same on any machine.
    Without a work limit ``work`` is unbounded; under one, ``seconds`` is the time left, a
    safety net only."""

    seconds: float
    work: float

    @property
    def by_work(self) -> bool:
        """Whether the phase runs under a work limit."""
        return not math.isinf(self.work)

    @property
    def clock(self) -> float:
        """Seconds a heuristic may go on by the clock after its own work: none under a work limit."""
        return 0.0 if self.by_work else self.seconds


@dataclass(frozen=True)
class SolveOptions:
    """solver: ``--solver``'s name; deadline: when every phase must be done; threads, seed:
    the backends'; work_limit: deterministic work (see the module doc), None for none; exact:
    whether the exact backends run after the heuristics."""

    solver: str = "auto"
    deadline: Deadline = field(default_factory=Deadline.never)
    threads: int = 1
    seed: int = 0
    work_limit: float | None = None
    #: False for the fits of the cross-validation's folds: the heuristics and exhaustive search's
    #: plans only, no CP-SAT or integer program (a fold's card estimates how well its C0 does
    #: on new rows; it needs no proof).
    exact: bool = True

    @classmethod
    def of(cls, config, deadline: Deadline | None = None) -> "SolveOptions":
        """The options of a TrainConfig, until ``deadline`` (default: its time limit from now)."""
        return cls(solver=config.solver, deadline=deadline if deadline is not None else Deadline.after(config.time_limit),
                   threads=config.threads, seed=config.seed, work_limit=config.work_limit)

    def phase(self, fraction: float, at_most: float = math.inf, at_least: float = 0.0) -> Phase:
        """A heuristic phase's budget: ``fraction`` of the seconds left, between ``at_least``
        and ``at_most`` (never past the deadline); under a work limit the same share of it, as
        work, so that the phase does the same on any machine (``at_least`` at most the work
        limit: a small limit keeps every phase small)."""
        left = self.deadline.remaining()
        if self.work_limit is None:
            return Phase(min(left, max(at_least, min(at_most, fraction * left))), math.inf)
        return Phase(left, max(min(at_least, self.work_limit), min(at_most, fraction * self.work_limit)))

    def scaled(self, full: float, per_unit: float) -> float:
        """A fixed work budget ``full`` (candidates x rows, entries), or under a work limit W at
        most W x ``per_unit`` of it: a small limit keeps every step small."""
        return full if self.work_limit is None else min(full, self.work_limit * per_unit)

    def until(self, deadline: Deadline) -> "SolveOptions":
        """The same options with another deadline."""
        return replace(self, deadline=deadline)

    def using(self, solver: str) -> "SolveOptions":
        return replace(self, solver=solver)

    @property
    def max_nodes(self) -> int | None:
        """CBC's/HiGHS's node limit for the work limit."""
        return None if self.work_limit is None else max(1, int(self.work_limit * NODES_PER_WORK))


def process_start() -> float:
    """When this process started, on ``time.monotonic()``'s clock (Linux: from /proc; else now).

    The command line's deadline counts from here, so interpreter start-up and imports are
    part of ``--time-limit``.
    """
    now = time.monotonic()
    try:
        with open("/proc/self/stat", encoding="ascii") as fh:
            fields = fh.read().rsplit(")", 1)[1].split()
        started = int(fields[19]) / os.sysconf("SC_CLK_TCK")  # field 22: start time after boot
        age = time.clock_gettime(time.CLOCK_BOOTTIME) - started
    except (OSError, ValueError, IndexError, AttributeError):
        return now
    return now - age if 0.0 <= age < 60.0 else now
