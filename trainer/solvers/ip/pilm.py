"""Personalized Integer Linear Models (PILM, paper Section 3.2) in the SLIM integer program.

PILM prices each coefficient by the interpretability set it comes from: with tiers
Lset^1 (price C_1), Lset^2 (C_2 > C_1), ..., a coefficient from Lset^r costs C_r, so the
optimal model uses a value from a less interpretable set only when it gains at least that
much training accuracy. The paper's IP gives each coefficient one binary per allowed value,
u_{j,k,r}, with lambda_j = sum l_{r,k} u_{j,k,r} and penalty sum C_r u_{j,k,r}. Here the u
binaries are the value-set ones (every PILM column lists its allowed values, see
``problem/constrained.py``); every non-zero coefficient already costs C_1 through the SLIM L0 term
(``problem.c0``, which keeps the SLIM IP's bound on the number of features valid), and a
value of tier r adds C_r - C_1 to the objective.
"""
from __future__ import annotations

import pulp

from ...problem.slim import SlimProblem


def add(problem: SlimProblem, h) -> None:
    """The extra price of tiers 2..R on the u binaries of ``h`` (:class:`.constraints.Handles`)."""
    tiers = problem.constraints.tiers
    extra = [price * h.scale * u[v] for u in h.values.values() for values, price in tiers for v in values if v in u]
    if extra:
        h.lp.setObjective(h.lp.objective + pulp.lpSum(extra))
