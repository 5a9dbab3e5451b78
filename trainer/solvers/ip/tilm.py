"""Threshold-rule Integer Linear Models (TILM, paper Section 3.3, Eq. 3.4) in the SLIM IP.

The design holds threshold rules ``x >= v`` of each raw input (``data/binarize.py``, without
negations), so a scoring system over them is a step function of each input. TILM's
penalty is C_f per input used plus C_t per rule, with at most R_max rules per input and
one sign over all the threshold rules of a numeric input (so the score stays monotone in
it). Per input j, with nu_j = 1 when any of its rules is used and delta_j its sign:

    alpha_{j,t} <= nu_j,   sum_t alpha_{j,t} <= R_max nu_j,
    lambda_{j,t} <= Lambda delta_j,   lambda_{j,t} >= -Lambda (1 - delta_j).

Every rule costs C_t through the SLIM L0 term (``problem.c0``); nu_j adds C_f - C_t, so an
input with t rules costs C_f + (t - 1) C_t, the paper's C_f nu_j + C_t tau_j.
"""
from __future__ import annotations

import pulp

from ...problem.slim import SlimProblem


def add(problem: SlimProblem, h) -> None:
    """The per-input TILM block on the SLIM IP of ``h`` (:class:`.constraints.Handles`)."""
    block = problem.constraints.tilm
    if block is None:
        return
    extra = []
    for i, (name, cols) in enumerate(sorted(block.rules_of.items())):
        live = [j for j in cols if h.coef[j] is not None]
        if not live:
            continue
        start = h.start[0][list(cols)] if h.start is not None else None
        nu = h.lp.add_variable(f"tilm_input_{i}", cat=pulp.LpBinary)
        for j in live:
            h.lp += h.alpha[j] <= nu, f"tilm_use_{i}_{j}"
        if len(live) > block.max_rules:
            h.lp += pulp.lpSum(h.alpha[j] for j in live) <= block.max_rules * nu, f"tilm_max_rules_{i}"
        h.initial(nu, int(start is not None and bool((start != 0).any())))
        extra.append(block.feature_extra[name] * h.scale * nu)
        signed = [j for j in live if h.coef[j].lowBound < 0 < h.coef[j].upBound]
        if name in block.one_sign and len(live) > 1 and signed:
            delta = h.lp.add_variable(f"tilm_sign_{i}", cat=pulp.LpBinary)
            for j in live:
                var = h.coef[j]
                h.lp += var <= max(var.upBound, 0) * delta, f"tilm_sign_hi_{i}_{j}"
                h.lp += var >= min(var.lowBound, 0) * (1 - delta), f"tilm_sign_lo_{i}_{j}"
            h.initial(delta, int(start is not None and bool((start > 0).any())))
    if extra:
        h.lp.setObjective(h.lp.objective + pulp.lpSum(extra))


