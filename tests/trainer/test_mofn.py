"""M-of-N rule tables (paper Section 3.3.1): "predict positive if at least M of these N rules hold"."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scorecard.runtime import dumps, loads, predict
from scorecard.trainer.data.prepare import prepare, read_table
from scorecard.trainer.options.config import TrainConfig
from scorecard.trainer.solvers import cpsat
from scorecard.trainer.train import train
from testdata import EXAMPLES, SHARED

BREASTCANCER = EXAMPLES / "breastcancer.csv"


@pytest.fixture(scope="module")
def breastcancer_table():
    # CP-SAT proves this table optimal in about 0.2 s of deterministic time (one worker, fixed
    # seed): with a work limit the verdict is the same on any machine, the 120 s time limit is
    # only a safety net. (--solver auto spends its whole budget in exhaustive search here.)
    if not cpsat.available():
        pytest.skip("OR-Tools is not installed")
    data = prepare(pd.read_csv(BREASTCANCER), "Benign")
    p = len(data.inputs) * 2  # a rule at 3 and its negation per feature
    config = TrainConfig(model="mofn", c0=0.9 / (len(data.y) * p), cuts={i.name: [3] for i in data.inputs},
                         solver="cpsat", time_limit=120)
    return data, train(data, config.with_options(work_limit=10))


def test_breastcancer_rules_at_3_give_a_table_of_the_papers_size_and_error(breastcancer_table):
    data, model = breastcancer_table
    assert model.kind == "m_of_n" and model.training.status == "optimal"
    assert all(t.points == 1 and t.op in (">=", "<") and t.value == 3 for t in model.terms)
    assert 6 <= len(model.terms) <= 9  # the paper: 8 rules
    assert model.training.train_error <= 0.045  # the paper: 4.1 %
    assert 1 <= model.rules_needed <= len(model.terms)


def test_the_table_predicts_by_counting_true_rules(breastcancer_table):
    data, model = breastcancer_table
    rows = data.frame.to_dict("records")
    reread = loads(dumps(model))
    for row in rows[:100]:
        true_rules = sum(1 for t in model.terms if (row[t.input] >= t.value if t.op == ">=" else row[t.input] < t.value))
        assert predict(reread, row) == int(true_rules >= model.rules_needed)


def test_categorical_inputs_give_rules_and_their_negations_on_the_raw_levels():
    rng = np.random.default_rng(0)
    n = 120
    frame = pd.DataFrame({"odor": rng.choice(["none", "foul", "almond", "anise"], n),
                          "ring": rng.choice(["one", "two"], n)})
    frame["y"] = ((frame.odor != "none") & (frame.odor != "almond") | (frame.ring == "two")).astype(int)
    # proven at once by exhaustive search: 120 s is only a safety net
    model = train(prepare(frame, "y"), TrainConfig(model="mofn", c0=0.001, time_limit=120))
    assert model.training.train_error == 0
    assert all(t.op in ("==", "in") for t in model.terms)


@pytest.mark.slow
@pytest.mark.parametrize("name,missing", [("mushroom", "null"), ("mushroom_raw", "impute")])
def test_mushroom_gets_a_table_with_no_training_error(name, missing):
    path = SHARED / f"{name}.csv"
    data = prepare(read_table(str(path)), "poisonous", missing=missing)
    model = train(data, TrainConfig(model="mofn", c0=1e-5, time_limit=400))
    assert model.training.train_error == 0
    assert len(model.terms) <= 21  # the paper: 21 rules
