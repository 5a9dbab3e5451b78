"""The runtime scores every row of every shared dataset exactly as an independent sum does.

Each dataset gets a hand-built model over all its columns with small integer points (a
``linear`` term for numeric columns, an ``==`` term for text columns); the expected score
of each row is computed here from the raw CSV text, without the runtime, and compared with
``python -m scorecard.runtime`` and ``scorecard predict`` on every row.
"""
from __future__ import annotations

import csv
import io
import subprocess
import sys

import pytest
from scorecard.runtime import Input, Model, Target, Term, dump
from testdata import EXAMPLES, shared_datasets

DATASETS = shared_datasets() or [EXAMPLES / "breastcancer.csv"]


def read(path):
    with open(path, newline="", encoding="utf-8") as fh:
        rows = list(csv.reader(fh))
    return rows[0], rows[1:]


def as_number(text: str):
    try:
        return int(text)
    except ValueError:
        return float(text)


def is_number(text: str) -> bool:
    try:
        float(text)
        return True
    except ValueError:
        return False


def hand_model(header, rows) -> tuple[Model, list]:
    """A model using every feature column, and the expected score of each row (None if missing)."""
    inputs, terms, plan = [], [], []
    for k, name in enumerate(header[1:], start=1):
        values = [r[k] for r in rows if r[k] != ""]
        points = (k % 7) - 3 or 4
        if all(is_number(v) for v in values):
            kind = "binary" if set(values) <= {"0", "1"} else "numeric"
            inputs.append(Input(name, kind))
            terms.append(Term(name, "linear", None, points, name))
            plan.append((k, points, None))
        else:
            level = sorted(set(values))[0]
            inputs.append(Input(name, "categorical"))
            terms.append(Term(name, "==", level, points, f"{name} is {level}"))
            plan.append((k, points, level))
    intercept = -len(header)
    expected = []
    for r in rows:
        total = 0  # the score is the points total: the intercept only sets the threshold
        for k, points, level in plan:
            if r[k] == "":
                total = None
                break
            total = total + (points * as_number(r[k]) if level is None else points * (r[k] == level))
        expected.append(total)
    return Model("linear", Target(header[0], 1), tuple(inputs), tuple(terms), intercept), expected


def expected_lines(header, rows, expected, threshold) -> list[list[str]]:
    def fmt(v):
        return "" if v is None else repr(v) if isinstance(v, float) else str(v)

    out = [header + ["score", "prediction"]]
    for r, v in zip(rows, expected):
        out.append(r + [fmt(v), "" if v is None else str(int(v > threshold))])
    return out


@pytest.mark.parametrize("path", DATASETS, ids=[p.stem for p in DATASETS])
def test_runtime_and_predict_score_every_row_like_an_independent_sum(path, tmp_path, cli):
    header, rows = read(path)
    model, expected = hand_model(header, rows)
    model_path = tmp_path / "m.json"
    dump(model, str(model_path))
    want = expected_lines(header, rows, expected, model.threshold)

    done = subprocess.run([sys.executable, "-m", "scorecard.runtime", str(model_path), str(path)],
                          capture_output=True, text=True, check=True)
    assert list(csv.reader(io.StringIO(done.stdout))) == want

    out = tmp_path / "out.csv"
    run = cli("predict", model_path, path, "-o", out)
    assert run.code == 0
    with open(out, newline="", encoding="utf-8") as fh:
        assert list(csv.reader(fh)) == want
    unscored = sum(v is None for v in expected)
    assert (f"{unscored} of {len(rows)} rows have no score" in run.err) == (unscored > 0)
