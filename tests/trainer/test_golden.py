"""Golden rows are chosen from every row's score computed in columns (trainer/vectorised.py):
the rows must be those the runtime's own scores choose (trainer/golden.py's rules, restated
here row by row with ``runtime.score``), on models of every kind over real data."""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest
from scorecard.runtime.score import contribution, score
from scorecard.trainer.data.prepare import prepare, read_table
from scorecard.trainer.golden import BOUNDARY_ROWS, MAX_ROWS, choose, plain

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "exporters"))
from code_models import CASES, DATASETS  # noqa: E402


def runtime_choice(model, frame) -> list[int]:
    """The rows golden.py's rules pick, each row scored by the runtime."""
    used = [i.name for i in model.used_inputs]
    rows = [{name: plain(frame[name].iloc[k]) for name in used} for k in range(len(frame))]
    scores = [score(model, r) for r in rows]
    picked: list[int] = []

    def take(i):
        if i is not None and i not in picked:
            picked.append(i)

    for term in model.terms:
        values = [r[term.input] for r in rows]
        if term.op == "linear":
            numbers = np.array(values, dtype=float)
            take(int(np.argmin(numbers)))
            take(int(np.argmax(numbers)))
        else:
            on = [contribution(term, v) != 0 for v in values]
            take(next((i for i in range(len(rows)) if on[i]), None))
            take(next((i for i in range(len(rows)) if not on[i]), None))
    valued = [(s, i) for i, s in enumerate(scores) if s is not None]
    t = model.threshold  # the score is the points total: the boundary is the threshold
    above = sorted((s - t, i) for s, i in valued if s > t)
    below = sorted((t - s, i) for s, i in valued if s <= t)
    for _, i in below[:BOUNDARY_ROWS] + above[:BOUNDARY_ROWS]:
        take(i)
    return sorted(picked[:MAX_ROWS - 1])


@pytest.mark.parametrize("case", sorted(CASES))
def test_golden_rows_are_the_rows_the_runtime_scores_choose(case):
    make, name = CASES[case]
    model = make()
    missing = "unmet" if model.unmet else "impute" if model.imputed else "drop"
    data = prepare(read_table(str(DATASETS / name)), model.target.name, model.target.positive, missing)
    frame = data.frame
    golden = choose(model, frame)
    expected = runtime_choice(model, frame)
    assert [g.row for g in golden] == [{c: plain(frame[c].iloc[i]) for c in frame.columns} for i in expected]
    assert [g.score for g in golden] == [score(model, g.row) for g in golden]
