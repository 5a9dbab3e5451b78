"""The ``python`` export of models far longer than a card (issue 12, item 21): the file must
import and give the runtime's scores, whatever the number of terms."""
from __future__ import annotations

import importlib.util
from types import MappingProxyType

import numpy as np
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


def _mixed_model() -> Model:
    """An input only compared (a), one only linear (b), one both (c): each takes its own fast check."""
    return Model(kind="linear", target=Target("y", 1), inputs=(Input("a", "numeric"), Input("b", "numeric"),
                                                                 Input("c", "numeric")),
                 terms=(Term("a", ">=", 5, 3, "a >= 5"), Term("a", "<", 2, -1, "a < 2"),
                        Term("b", "linear", None, 2, "2 x b"), Term("c", ">=", 3, 1, "c >= 3"),
                        Term("c", "linear", None, 1, "c")), intercept=-2)


# The column types score_columns takes at C speed (bytes, other ints), and those it must read value by
# value (NumPy integers in a linear column, floats, text, ints past 2^30 where score(row) changes path).
COLUMNS = {
    "bytes": lambda v: v,
    "ints beyond a byte": lambda v: [x * 1000 - 7 for x in v],
    "bools": lambda v: [x % 2 == 1 for x in v],
    "numpy integers": lambda v: list(np.array(v, dtype=np.int64)),
    "floats": lambda v: [x + 0.5 for x in v],
    "text": lambda v: [str(x) for x in v],
    "beyond 2^30": lambda v: [x + 2**40 for x in v],
}


@pytest.mark.parametrize("kind", sorted(COLUMNS))
def test_the_batch_and_row_functions_give_the_runtimes_scores_for_every_column_type(tmp_path, kind):
    model = _mixed_model()
    path = tmp_path / "model.py"
    path.write_text(python_export.render(model), encoding="utf-8")
    spec = importlib.util.spec_from_file_location("mixed", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    base = list(range(12))
    columns = {name: COLUMNS[kind](base[k:] + base[:k]) for k, name in enumerate("abc")}
    rows = [dict(zip(columns, values)) for values in zip(*columns.values())]
    want = [score(model, row) for row in rows]
    assert same(module.score_columns(columns), want)
    assert same([module.score(row) for row in rows], want)
    assert same([module.score(MappingProxyType(row)) for row in rows], want)  # any mapping, not only a dict
    del rows[3]["b"]  # an absent input is missing: no score
    assert module.score(rows[3]) is None and score(model, rows[3]) is None
