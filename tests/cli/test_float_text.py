"""``scorecard predict`` writes floats as the runtime does (``repr``), without a Python object
per value (scorecard/float_text.py), and computes the logistic risk with the same ``exp``."""
from __future__ import annotations

import math

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
from scorecard.float_text import float_text
from scorecard.runtime import Input, Model, Target, Term
from scorecard.runtime.risk import risk_function
from scorecard.vectorised import BatchScorer


def test_every_magnitude_is_written_as_repr_writes_it():
    """Doubles of every exponent, sign, integral or not, the layout boundaries of both
    (1e-4, 1e-6, 1e10, 1e16) on either side, random bit patterns, infinities and NaN."""
    rng = np.random.default_rng(7)
    edges = np.array([10.0 ** k for k in range(-12, 20)] + [0.0, -0.0, 5e-324, 1.7976931348623157e308, 0.1, 1 / 3,
                                                           2.5e-6, -1.5e-5, 9.999999999999999e-05, 2.0 ** 53, 2.0 ** 53 + 2,
                                                           np.inf, -np.inf, np.nan])
    with np.errstate(over="ignore"):
        neighbours = [np.nextafter(edges, np.inf), np.nextafter(edges, -np.inf)]
    values = np.concatenate([
        edges, *neighbours, -edges,
        rng.normal(0, 10, 50_000),  # float scores
        1 / (1 + np.exp(-rng.normal(-8, 6, 50_000))),  # probabilities, many below 1e-4
        10.0 ** rng.uniform(-320, 308, 100_000) * rng.choice([-1, 1], 100_000),
        rng.integers(-10**6, 10**6, 20_000).astype(float),
        rng.integers(0, 2**63, 100_000, dtype=np.uint64).view(np.float64),
    ])
    assert float_text(values).to_pylist() == [repr(v) for v in values.tolist()]


def test_pyarrows_exp_is_the_runtimes_math_exp():
    """The logistic risk takes ``exp`` from pyarrow, which calls the C library as ``math.exp``
    does; numpy's own vectorised ``exp`` would differ in the last bit of some values."""
    z = -np.abs(np.random.default_rng(3).normal(0, 20, 200_000))
    ours = pc.exp(pa.array(z)).to_numpy()
    assert ours.tolist() == [math.exp(v) for v in z.tolist()]


def test_risks_are_the_runtimes_risks_bit_for_bit():
    model = Model("linear", Target("y", 1), (Input("a", "numeric"),), (Term("a", "linear", None, 1.5, "a"),), -1)
    scores = np.concatenate([np.random.default_rng(5).normal(0, 15, 20_000), [0.0, -0.0, 700.0, -800.0, 3.0]])
    for probability in ({"method": "logistic", "scale": 0.7, "center": 2}, {"method": "logistic", "scale": 1},
                        {"method": "table", "table": [{"score": -1, "risk": 0}, {"score": 0.5, "risk": 0.4},
                                                      {"score": 2, "risk": 1}]}):
        scorer = BatchScorer(Model(model.kind, model.target, model.inputs, model.terms, model.intercept,
                                   model.missing, probability))
        reference = risk_function(probability)
        assert scorer.risks(scores).tolist() == [reference(s) for s in scores.tolist()], probability
