"""Models the trainer really produces pass ``verify`` in every engine, on every data row.

Slow (the solver runs): ``pytest -m slow tests/exporters/test_code_trained.py``. The
hand-built models of code_models.py are the fast path for the same checks.
"""
from __future__ import annotations

import pytest
from code_models import DATASETS, read_rows
from scorecard.exporters.verify import NO_ENGINE, verify


@pytest.mark.slow
@pytest.mark.parametrize("data,target,missing", [("breastcancer.csv", "Benign", "null"),
                                                 ("mushroom_raw.csv", "poisonous", "impute"),
                                                 ("heart.csv", "Disease", "null")])
def test_trained_model_agrees_everywhere(data, target, missing, pg_dsn):
    from scorecard.trainer.data.prepare import prepare, read_table
    from scorecard.trainer.options.config import TrainConfig
    from scorecard.trainer.train import train

    labeled = prepare(read_table(str(DATASETS / data)), target, 1, missing, data)
    model = train(labeled, TrainConfig(time_limit=20, c0=0.01))
    checks = [c for c in verify(model, read_rows(data), pg_dsn=pg_dsn) if c.reason != NO_ENGINE]
    assert [c.ok for c in checks] == [True] * len(checks), [c.line() for c in checks]
