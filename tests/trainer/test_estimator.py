import numpy as np
import pytest
from scorecard.runtime import Model, score
from slimdata import tiny

from scorecard import SLIMClassifier

# Proven at once by exhaustive search: 120 s is only a safety net.
FAST = dict(coef_min=-3, coef_max=3, intercept_min=-10, intercept_max=10, time_limit=120)


def _xy(seed=3, n=40):
    frame = tiny(seed, n=n)
    return frame.drop(columns="y"), frame["y"].to_numpy()


def test_fit_on_a_dataframe_gives_the_runtime_model_and_sklearn_attributes():
    X, y = _xy()
    clf = SLIMClassifier(c0=0.02, **FAST).fit(X, y)
    assert isinstance(clf.model_, Model)
    assert list(clf.classes_) == [0, 1] and clf.n_features_in_ == 3
    assert list(clf.feature_names_in_) == ["f0", "f1", "f2"]
    assert clf.intercept_ == clf.model_.intercept
    assert {name: int(c) for name, c in zip(X.columns, clf.coef_) if c} == \
        {t.input: t.points for t in clf.model_.terms}
    rows = X.to_dict(orient="records")
    np.testing.assert_array_equal(clf.decision_function(X), [score(clf.model_, r) - clf.model_.threshold for r in rows])
    np.testing.assert_array_equal(clf.predict(X), (clf.decision_function(X) > 0).astype(int))


def test_arrays_get_named_columns_and_string_labels_come_back():
    X, y = _xy()
    labels = np.where(y == 1, "sick", "well")
    clf = SLIMClassifier(c0=0.02, **FAST).fit(X.to_numpy(), labels)
    assert {t.input for t in clf.model_.terms} <= {"x0", "x1", "x2"}
    assert set(clf.predict(X.to_numpy())) <= {"sick", "well"}
    assert clf.model_.target.positive == 1 and list(clf.classes_) == ["sick", "well"]


def test_params_round_trip_and_unknown_names_are_refused():
    clf = SLIMClassifier(c0=0.05)
    assert clf.get_params()["c0"] == 0.05
    assert clf.set_params(max_features=2).max_features == 2
    with pytest.raises(ValueError, match="Invalid parameter 'C'"):
        clf.set_params(C=1)


def test_works_in_sklearn_pipelines_and_cross_validation():
    sklearn = pytest.importorskip("sklearn")
    from sklearn.base import clone
    from sklearn.model_selection import cross_val_score
    from sklearn.pipeline import make_pipeline

    X, y = _xy(5, n=60)
    scores = cross_val_score(make_pipeline(SLIMClassifier(c0=0.01, **FAST)), X, y, cv=3)
    assert len(scores) == 3 and scores.mean() > 0.6
    assert clone(SLIMClassifier(c0=0.07)).c0 == 0.07
    assert sklearn.base.is_classifier(SLIMClassifier())


# Deliberate differences from scikit-learn's defaults, each a documented behaviour of scorecard:
EXPECTED_FAILURES = {
    "check_dtype_object": "text columns are categorical features (one-hot '==' terms), not an error",
    "check_estimators_nan_inf": "NaN is a missing value (the 'unmet' policy: it meets no condition), not an error",
}


@pytest.mark.slow
def test_sklearn_estimator_checks():
    pytest.importorskip("sklearn")
    from sklearn.utils.estimator_checks import check_estimator

    est = SLIMClassifier(coef_min=-2, coef_max=2, intercept_min=-5, intercept_max=5, time_limit=600, work_limit=0.2)
    results = check_estimator(est, on_fail=None, expected_failed_checks=EXPECTED_FAILURES)
    failed = [r["check_name"] for r in results if r["status"] == "failed"]
    assert failed == []


def test_predict_proba_is_the_risk_the_model_file_gives_at_each_score():
    from scorecard.runtime import risk

    X, y = _xy()
    clf = SLIMClassifier(c0=0.02, **FAST).fit(X, y)
    proba = clf.predict_proba(X)
    assert clf.model_.probability is not None and proba.shape == (len(X), 2)
    rows = X.to_dict(orient="records")
    np.testing.assert_array_equal(proba[:, 1], [risk(clf.model_, score(clf.model_, r)) for r in rows])
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)


def test_explain_gives_each_rows_reason_codes_as_predict_explain_does():
    from scorecard.runtime import explain

    X, y = _xy()
    clf = SLIMClassifier(c0=0.02, **FAST).fit(X, y)
    reasons = clf.explain(X, k=2)
    assert list(reasons.columns) == ["reason_1", "reason_2", "points_1", "points_2"]
    assert list(reasons.index) == list(X.index)
    for (_, got), row in zip(reasons.iterrows(), X.to_dict(orient="records")):
        want = explain(clf.model_, row, 2)
        assert list(got[["reason_1", "reason_2"]]) == [r.text for r in want] + [None] * (2 - len(want))
        assert list(got[["points_1", "points_2"]]) == [r.points for r in want] + [None] * (2 - len(want))
    assert reasons["reason_1"].notna().any()


def test_a_polars_frame_keeps_its_column_names_as_a_pandas_frame_does():
    pl = pytest.importorskip("polars")
    X, y = _xy()
    X = X.rename(columns={"f0": "glucose mg/dL", "f1": "age", "f2": "bmi"})
    from_pandas = SLIMClassifier(c0=0.02, **FAST).fit(X, y)
    frame = pl.from_dict({name: X[name].to_list() for name in X.columns})
    from_polars = SLIMClassifier(c0=0.02, **FAST).fit(frame, y)
    assert list(from_polars.feature_names_in_) == ["glucose mg/dL", "age", "bmi"]
    assert from_polars.model_.terms == from_pandas.model_.terms
    assert {t.input for t in from_polars.model_.terms} <= set(X.columns)
    np.testing.assert_array_equal(from_polars.predict(frame), from_pandas.predict(X))
    np.testing.assert_array_equal(from_polars.predict_proba(frame), from_pandas.predict_proba(X))


def test_what_the_command_line_notes_about_the_data_fit_warns():
    """A level of 3 rows is no condition of its own (--min-level-rows) and the command line says
    so in a note; fit says it as a ScorecardWarning, not silently."""
    from scorecard.trainer.advice import ScorecardWarning

    X, y = _xy()
    X = X.assign(ward=["A"] * 20 + ["B"] * 17 + ["C"] * 3)
    rare = "column 'ward': 1 of its 3 levels is held by fewer than 10 rows and is no condition of its own"
    with pytest.warns(ScorecardWarning, match=rare):
        SLIMClassifier(c0=0.02, **FAST).fit(X, y)
