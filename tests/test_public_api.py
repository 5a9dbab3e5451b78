"""The public API: every name ``__all__`` promises resolves, for ``scorecard`` and ``scorecard.runtime``."""
from __future__ import annotations

import importlib

import numpy as np
import pytest


@pytest.mark.parametrize("module", ["scorecard", "scorecard.runtime"])
def test_star_import_and_every_name_in_all_resolves(module):
    mod = importlib.import_module(module)
    assert mod.__all__ and len(set(mod.__all__)) == len(mod.__all__)
    namespace: dict = {}
    exec(f"from {module} import *", namespace)
    for name in mod.__all__:
        assert name in namespace, f"{module}: 'from {module} import *' lacks {name!r}"
        assert getattr(mod, name) is namespace[name]


def test_lazy_names_come_from_their_modules():
    from scorecard.runtime import Model, load
    from scorecard.trainer.estimator import MofNClassifier, SLIMClassifier
    from scorecard.trainer.options.config import TrainConfig
    from scorecard.trainer.train import train

    import scorecard

    assert (scorecard.Model, scorecard.load, scorecard.TrainConfig, scorecard.train) == (Model, load, TrainConfig, train)
    assert (scorecard.SLIMClassifier, scorecard.MofNClassifier) == (SLIMClassifier, MofNClassifier)
    with pytest.raises(AttributeError, match="no attribute 'Nope'"):
        getattr(scorecard, "Nope")


def test_runtime_exports_the_error_hierarchy():
    import scorecard.runtime as rt

    for name in ("ScorecardError", "BadInputError", "UsageError", "ConfigError", "DataError", "ModelError",
                 "RowError", "ExportError", "InfeasibleError", "NoModelInTimeError"):
        assert name in rt.__all__ and issubclass(getattr(rt, name), rt.ScorecardError)


def test_mofn_classifier_trains_an_m_of_n_table():
    from scorecard import MofNClassifier

    rng = np.random.default_rng(0)
    X = rng.integers(0, 5, size=(60, 3))
    y = (X[:, 0] + X[:, 1] > 4).astype(int)
    clf = MofNClassifier(time_limit=120).fit(X, y)
    assert clf.model_.kind == "m_of_n" and clf.model_.training.params["model"] == "mofn"
    assert all(term.points == 1 for term in clf.model_.terms) and clf.model_.intercept <= 0
    assert clf.score(X, y) == 1.0
