"""``SLIMClassifier``: SLIM with scikit-learn's conventions, without needing scikit-learn.

Explicit keyword parameters (``get_params``/``set_params``), ``fit(X, y)`` on a pandas or
polars DataFrame (its column names are the model's input names) or an array (columns named
``x0``, ``x1``, ...), fitted attributes ending in ``_``; ``model_`` is the same runtime Model
``scorecard train`` writes, so it exports anywhere. ``predict_proba`` reads the model's own
score-to-risk map (runtime/risk.py), the risk the card and every export print, and
``explain`` gives each row's reason codes (runtime/explain.py).
"""
from __future__ import annotations

import inspect
import warnings

import numpy as np
import pandas as pd
from scorecard.runtime import explain as runtime_explain
from scorecard.runtime import risk as runtime_risk
from scorecard.runtime import score as runtime_score
from scorecard.runtime.explain import check_k, reason_cells, reason_columns

from . import advice
from .data.families import data_notes
from .data.prepare import prepare
from .options import spec
from .options.config import TrainConfig
from .train import train

TARGET = "__target__"


class SLIMClassifier:
    """Supersparse Linear Integer Model (paper Section 3.1) trained to provable optimality.

    Parameters are the spec's estimator options (``options/spec.py``, ``estimator=True``),
    with their defaults (``time_limit`` is 60 s here; a test holds ``__init__`` to the spec);
    they mean what the ``scorecard train`` options of the same name mean. ``c0`` defaults to
    0.01, not the command line's ``"auto"``: in scikit-learn, choosing a hyperparameter is the
    job of ``GridSearchCV`` around the estimator, and an inner cross-validation in every
    ``fit`` would multiply its time by the grid times the folds (26 fits) unasked, also inside
    ``cross_val_score``; ``c0="auto"`` is accepted and does the same as ``--c0 auto``. ``classes_``
    holds the two labels seen in ``fit`` (sorted); the second one is the positive class.
    """

    _estimator_type = "classifier"

    def __init__(self, *, c0: float | str = 0.01, coef_min: int = -10, coef_max: int = 10,
                 intercept_min: int = -100, intercept_max: int = 100, max_features: int | None = None,
                 max_items: int = 10, min_features: int | None = None, signs: dict | None = None,
                 w_pos: float = 0.5, numeric: str = "cuts", missing: str = "unmet", solver: str = "auto",
                 time_limit: float = 60.0, work_limit: float | None = 1.0, threads: int = 1, seed: int = 0):
        self.c0 = c0
        self.missing = missing
        self.numeric = numeric
        self.coef_min = coef_min
        self.coef_max = coef_max
        self.intercept_min = intercept_min
        self.intercept_max = intercept_max
        self.max_features = max_features
        self.max_items = max_items
        self.min_features = min_features
        self.signs = signs
        self.w_pos = w_pos
        self.solver = solver
        self.time_limit = time_limit
        self.work_limit = work_limit
        self.threads = threads
        self.seed = seed

    # ------------------------------------------------------------------ parameters

    @classmethod
    def _param_names(cls) -> list[str]:
        return sorted(p.name for p in inspect.signature(cls.__init__).parameters.values()
                      if p.kind == p.KEYWORD_ONLY)

    def get_params(self, deep: bool = True) -> dict:
        """The constructor parameters and their current values."""
        return {name: getattr(self, name) for name in self._param_names()}

    def set_params(self, **params) -> "SLIMClassifier":
        """Change parameters (unknown names are refused)."""
        valid = self._param_names()
        for name, value in params.items():
            if name not in valid:
                raise ValueError(f"Invalid parameter {name!r} for estimator {type(self).__name__}; "
                                 f"valid parameters: {', '.join(valid)}")
            setattr(self, name, value)
        return self

    def __repr__(self) -> str:
        changed = {k: v for k, v in self.get_params().items()
                   if v != inspect.signature(type(self).__init__).parameters[k].default}
        return f"{type(self).__name__}({', '.join(f'{k}={v!r}' for k, v in changed.items())})"

    def __sklearn_tags__(self):
        from sklearn.utils import (  # only asked for by scikit-learn
            ClassifierTags,
            Tags,
            TargetTags,
        )

        return Tags(estimator_type="classifier", target_tags=TargetTags(required=True),
                    classifier_tags=ClassifierTags(multi_class=False))

    def config(self) -> TrainConfig:
        """The TrainConfig these parameters stand for (validated there, as every option is).

        A table parameter left at None (``signs``) means the option's empty default."""
        values = {}
        for option in spec.estimator_options():
            value = getattr(self, option.name)
            values[option.name] = dict(value or {}) if isinstance(option.default, dict) else value
        return TrainConfig(**values)

    # ------------------------------------------------------------------ fitting

    def _frame(self, X, fitting: bool) -> pd.DataFrame:
        if hasattr(X, "toarray") or hasattr(X, "tocsr"):
            raise TypeError(f"Sparse data is not supported by {type(self).__name__}; pass a dense array")
        names = _column_names(X)
        if isinstance(X, pd.DataFrame):
            frame = X.copy()
            frame.columns = names
        elif names is not None:  # a polars DataFrame: each column by its name, nulls as NaN / None
            frame = pd.DataFrame({name: np.asarray(X[column].to_numpy())
                                  for name, column in zip(names, X.columns)})
        else:
            array = np.asarray(X)
            if array.ndim != 2:
                raise ValueError(f"Expected a 2D array, got an array of shape {array.shape}; "
                                 "Reshape your data with X.reshape(-1, 1) for one feature")
            if np.iscomplexobj(array):
                raise ValueError("Complex data not supported")
            names = list(self.feature_names_in_) if not fitting and hasattr(self, "feature_names_in_") \
                else [f"x{k}" for k in range(array.shape[1])]
            if len(names) != array.shape[1]:
                raise ValueError(f"X has {array.shape[1]} features, but {type(self).__name__} "
                                 f"is expecting {len(names)} features as input")
            frame = pd.DataFrame(array, columns=names)
        if not fitting and frame.shape[1] != self.n_features_in_:
            raise ValueError(f"X has {frame.shape[1]} features, but {type(self).__name__} "
                             f"is expecting {self.n_features_in_} features as input")
        return frame

    def fit(self, X, y) -> "SLIMClassifier":
        """Train on features ``X`` and two-class labels ``y``."""
        if y is None:
            raise ValueError(f"{type(self).__name__} requires y to be passed, but the target y is None")
        frame = self._frame(X, fitting=True)
        if frame.shape[1] == 0:
            raise ValueError(f"Found array with 0 feature(s) (shape={frame.shape}) "
                             "while a minimum of 1 is required.")
        if frame.shape[0] == 0:
            raise ValueError(f"Found array with 0 sample(s) (shape={frame.shape}) "
                             "while a minimum of 1 is required.")
        numeric = frame.select_dtypes(include="number").to_numpy(dtype=float)
        if np.isinf(numeric).any():
            raise ValueError("Input X contains infinity; SLIMClassifier needs finite numbers (NaN for missing)")
        if self.missing == "null" and np.isnan(numeric).any():
            raise ValueError("Input X contains NaN; SLIMClassifier(missing='null') trains on complete rows only")
        labels = np.asarray(y)
        if labels.ndim == 2 and labels.shape[1] == 1:
            warnings.warn("A column-vector y was passed when a 1d array was expected; using y.ravel()",
                          _conversion_warning())
            labels = labels.ravel()
        if labels.ndim != 1 or len(labels) != len(frame):
            raise ValueError(f"y must be 1D with one label per row of X ({len(frame)}), got shape {labels.shape}")
        if labels.dtype.kind == "f" and not np.all(labels == np.round(labels)):
            raise ValueError("Unknown label type: continuous; SLIMClassifier needs two class labels")
        classes = np.unique(labels)
        if len(classes) == 1:
            raise ValueError(f"{type(self).__name__} needs two classes in y, got 1 class")
        if len(classes) > 2:
            raise ValueError(f"Only binary classification is supported; y holds {len(classes)} classes")
        frame[TARGET] = np.where(labels == classes[1], 1, 0)
        config = self.config()  # checks the parameters, missing among them, before the data
        data = prepare(frame, TARGET, positive=1, missing=config.missing, source="X")
        for note in data_notes(data, config):  # what the command line says as notes
            advice.warn(note)
        self.model_ = train(data, config)
        self.classes_ = classes
        self.n_features_in_ = frame.shape[1] - 1
        if _column_names(X) is not None:
            self.feature_names_in_ = np.array(_column_names(X), dtype=object)
        self.intercept_ = self.model_.intercept
        self.coef_ = self._coefficients()
        return self

    def _coefficients(self) -> np.ndarray:
        """Points per input for linear terms (0 for inputs the model does not use)."""
        names = [inp.name for inp in self.model_.inputs]
        coef = np.zeros(len(names), dtype=np.int64)
        for term in self.model_.terms:
            if term.op == "linear":
                coef[names.index(term.input)] += term.points
        return coef

    def decision_function(self, X) -> np.ndarray:
        """Each row's score minus the model's threshold (scikit-learn's convention: > 0 predicts
        ``classes_[1]``); the card's SCORE, the ``score`` of ``predict`` and the exports, is
        this plus ``model_.threshold``."""
        if not hasattr(self, "model_"):
            raise _not_fitted(self)
        scores = np.array([np.nan if s is None else s for s in self._scores(X)], dtype=float)
        return scores - self.model_.threshold

    def _scores(self, X) -> list:
        """The runtime's score of each row of ``X`` (None where a row has none)."""
        frame = self._frame(X, fitting=False)
        return [runtime_score(self.model_, row) for row in frame.to_dict(orient="records")]

    def predict(self, X) -> np.ndarray:
        """The predicted label of each row."""
        return np.where(self.decision_function(X) > 0, self.classes_[1], self.classes_[0])

    def predict_proba(self, X) -> np.ndarray:
        """Per row, the probabilities of ``classes_[0]`` and ``classes_[1]``: the risk the
        model's score-to-risk map (``model_.probability``, the card's risk table or the
        logistic map) gives at the row's score, as ``scorecard predict`` writes it; NaN for a
        row without a score (a missing value the model has no rule for)."""
        if not hasattr(self, "model_"):
            raise _not_fitted(self)
        if self.model_.probability is None:
            raise AttributeError(f"this {type(self).__name__}'s model has no score-to-risk map "
                                 "(model_.probability), so it gives no probabilities")
        risks = [runtime_risk(self.model_, s) for s in self._scores(X)]
        positive = np.array([np.nan if r is None else r for r in risks], dtype=float)
        return np.column_stack([1.0 - positive, positive])

    def explain(self, X, k: int = 3) -> pd.DataFrame:
        """Each row's reason codes, as ``scorecard predict --explain K`` writes them: columns
        ``reason_1..reason_k`` (the card's wording of the conditions that added the most points,
        > 0, ties in card order) and ``points_1..points_k`` (what each added), None where a row
        has fewer reasons or no score; the index of ``X`` when it is a pandas DataFrame."""
        if not hasattr(self, "model_"):
            raise _not_fitted(self)
        k = check_k(k, "k")
        frame = self._frame(X, fitting=False)
        rows = []
        for row in frame.to_dict(orient="records"):
            texts, points = reason_cells(runtime_explain(self.model_, row, k), k)
            rows.append(texts + points)
        index = X.index if isinstance(X, pd.DataFrame) else None
        return pd.DataFrame(rows, columns=list(reason_columns(k)), index=index, dtype=object)

    def score(self, X, y) -> float:
        """Accuracy on ``X``, ``y`` (scikit-learn's classifier default)."""
        return float(np.mean(self.predict(X) == np.asarray(y)))


def _column_names(X) -> list[str] | None:
    """The column names of a pandas or polars DataFrame (as text), None for an array. A polars
    frame is recognised by its module, so polars need not be installed to fit on arrays."""
    if isinstance(X, pd.DataFrame) or (type(X).__module__.split(".")[0] == "polars" and hasattr(X, "columns")):
        return [str(c) for c in X.columns]
    return None


def _conversion_warning() -> type:
    try:
        from sklearn.exceptions import DataConversionWarning
    except ImportError:  # scikit-learn is optional
        return UserWarning
    return DataConversionWarning


def _not_fitted(estimator) -> Exception:
    try:
        from sklearn.exceptions import NotFittedError
    except ImportError:  # scikit-learn is optional
        NotFittedError = AttributeError
    return NotFittedError(f"This {type(estimator).__name__} instance is not fitted yet. "
                          "Call 'fit' with appropriate arguments before using this estimator.")


class MofNClassifier(SLIMClassifier):
    """M-of-N rule table (paper Section 3.3.1): predicts ``classes_[1]`` when at least M of
    its N rules hold; SLIMClassifier's parameters, trained as ``scorecard train --model mofn``."""

    def config(self) -> TrainConfig:
        return super().config().with_options(model="mofn")
