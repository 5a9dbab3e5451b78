"""The ``python`` export of models far longer than a card (issue 12, item 21): the file must
import and give the runtime's scores, whatever the number of terms."""
from __future__ import annotations

import pytest
from code_engines import call_export
from scorecard.exporters import python as python_export
from scorecard.runtime import Input, Model, Target, Term, score
from test_code_exports import BATCH, same


def _long_model(n: int, integral: bool) -> Model:
    """``n`` inputs with a cut-off and a linear term each; float points unless ``integral``
    (then only the sum's value counts, and the file takes its integer fast path)."""
    inputs = tuple(Input(f"x{k}", "numeric") for k in range(n))
    terms = []
    for k in range(n):
        cut, linear = (k % 7 - 3, k % 3 - 1) if integral else (0.1 * (k % 7) - 0.3, 0.01 * (k % 11) - 0.05)
        terms += [Term(f"x{k}", ">=", k % 5, cut, f"x{k} >= {k % 5}"), Term(f"x{k}", "linear", None, linear, f"x{k}")]
    return Model(kind="linear", target=Target("y", 1), inputs=inputs, terms=tuple(terms),
                 intercept=5 if integral else 0.7)


@pytest.mark.parametrize("integral", [False, True])
def test_a_model_of_6000_terms_exports_to_python_that_runs(tmp_path, integral):
    model = _long_model(3000, integral)
    rows = [{f"x{k}": (k * (j + 3)) % 9 - 2 + (0.5 * (j % 2) if not integral else 0) for k in range(3000)}
            for j in range(4)]
    rows[2]["x777"] = None  # a missing value: no score
    path = tmp_path / "model.py"
    path.write_text(python_export.render(model), encoding="utf-8")
    want = [score(model, r) for r in rows]
    got = call_export(path, rows, BATCH)
    assert want[2] is None and isinstance(want[0], int if integral else float)
    for name in ("one_by_one", "score_columns", "score_rows", "tuples"):
        assert same(got[name], want), name
