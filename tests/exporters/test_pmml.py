"""The PMML Scorecard export in a real PMML engine (JPMML-Evaluator, Java through JPype): the
runtime's score, prediction, risk and reason codes on every row, the missing-value policy as
PMML states it, hostile names carried exactly, and the models PMML cannot hold refused."""
from __future__ import annotations

import dataclasses
import xml.etree.ElementTree as ET

import pytest
from code_models import CASES, case_rows, mushroom_model, read_rows
from scorecard.exporters import pmml
from scorecard.exporters import verify as verify_module
from scorecard.exporters.registry import ExportError
from scorecard.runtime import Input, Model, Target, Term
from test_code_hostile import CAT, CATEGORIES, SQLI, hostile_model, hostile_rows
from test_probability import CASES as RISK_CASES

NS = {"p": pmml.NAMESPACE}


def check(model: Model, rows: list[dict]) -> verify_module.FormatCheck:
    return verify_module.check_pmml(model, verify_module.cases_for(model, rows))


def tree(model: Model) -> ET.Element:
    return ET.fromstring(pmml.render(model))


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_engine_gives_the_runtimes_scores_predictions_and_reason_codes_on_every_row(name):
    build, data = CASES[name]
    model = build()
    result = check(model, case_rows(model, data))
    assert result.ok, result.line()
    assert result.rows > 300 and "identical reason codes" in result.line()


@pytest.mark.parametrize("name", sorted(RISK_CASES))
def test_the_engine_gives_the_runtimes_risk(name):
    model, data = RISK_CASES[name]
    result = check(model, case_rows(model, data))
    assert result.ok, result.line()


def test_rows_that_cannot_be_scored_are_invalid_results_under_null():
    """mushroom_raw has 2,480 empty stalk_root cells; under "null" their rows have no score,
    and so does a blank text (a space, a tab: what str.strip() empties)."""
    model = mushroom_model("null")
    first = read_rows("mushroom_raw.csv")[0]
    rows = read_rows("mushroom_raw.csv")[:40] + [dict(first, stalk_root=" \t"), dict(first, stalk_root="\u3000 ")]
    cases = verify_module.cases_for(model, rows)
    assert cases[-1].score is None and cases[-2].score is None and cases[0].score is not None
    result = verify_module.check_pmml(model, cases)
    assert result.ok, result.line()
    fields = {f.get("name"): f.get("missingValueTreatment") for f in tree(model).iterfind(".//p:MiningField", NS)}
    assert set(fields.values()) == {"returnInvalid"}


def test_the_missing_value_policy_is_stated_in_the_mining_schema():
    imputing = CASES["impute"][0]()
    fields = {f.get("name"): (f.get("missingValueTreatment"), f.get("missingValueReplacement"))
              for f in tree(imputing).iterfind(".//p:MiningField", NS)}
    assert all(fields[name] == ("asValue", str(value)) for name, value in imputing.imputed.items())
    unmet = CASES["unmet"][0]()
    doc = tree(unmet)
    assert all(f.get("missingValueTreatment") is None for f in doc.iterfind(".//p:MiningField", NS))
    assert doc.findall(".//p:SimplePredicate[@operator='isMissing']", NS)  # the "unknown" condition


def test_overlapping_cut_offs_are_one_characteristic_each_and_levels_share_one():
    """TILM-style rules on one column (age >= 60, age >= 75) can hold together: PMML scores
    only the first Attribute that matches, so each is its own Characteristic; a categorical
    input's levels are one Characteristic with a "not met" Attribute of 0 points."""
    model = Model(kind="linear", target=Target("y", 1),
                  inputs=(Input("age", "numeric"), Input("colour", "categorical"), Input("n", "numeric")),
                  terms=(Term("age", ">=", 60, 1, "age >= 60"), Term("age", ">=", 75, 2, "age >= 75"),
                         Term("colour", "==", "red", 2, "red"), Term("colour", "in", ("blue", "teal"), -1, "cool"),
                         Term("n", "<", 3, 1, "n < 3"), Term("n", ">=", 3, 2, "n >= 3")),
                  intercept=-3)
    chars = tree(model).findall(".//p:Characteristic", NS)
    assert [[a.get("reasonCode") for a in c.findall("p:Attribute", NS)] for c in chars] == [
        ["age >= 60", "age >= 60: none"], ["age >= 75", "age >= 75: none"],
        ["red", "cool", "colour: none"], ["n < 3", "n >= 3", "n: none"]]
    rows = [{"age": a, "colour": c, "n": n} for a in (50, 60, 74.5, 75, 90, "") for c in ("red", "blue", "teal", "x", "")
            for n in (0, 3, "")]
    assert check(dataclasses.replace(model, missing="unmet"), rows).ok


def test_reason_codes_rank_the_conditions_met_by_their_points():
    model = Model(kind="linear", target=Target("y", 1), inputs=(Input("a", "numeric"),),
                  terms=tuple(Term("a", ">=", k, 1, f"a >= {k}") for k in range(4)), intercept=0)
    assert pmml.ranked_reasons(model, [1, 0, 1, 1]) == ["a >= 0", "a >= 2", "a >= 3"]  # equal points: card order
    assert pmml.ranked_reasons(model, [2, 5, -1, 0]) == ["a >= 1", "a >= 0"]  # none for 0 or fewer points


def test_verify_catches_reason_codes_out_of_the_runtimes_order(monkeypatch):
    model, data = CASES["breastcancer"]
    model = model()
    monkeypatch.setattr(verify_module.pmml_export, "ranked_reasons", lambda m, points: [m.terms[-1].label])
    result = check(model, case_rows(model, data)[:50])
    assert result.ok is False and "reason codes differ" in result.line()


def test_reason_codes_name_one_condition_each():
    model = Model(kind="linear", target=Target("y", 1), inputs=(Input("a", "numeric"), Input("b", "numeric")),
                  terms=(Term("a", ">=", 1, 1, "high"), Term("b", ">=", 1, 2, "high"), Term("b", ">=", 5, 1, "")),
                  intercept=0)
    assert pmml.reason_codes(model) == ["high (term 1)", "high (term 2)", "term 3"]
    assert check(model, [{"a": a, "b": b} for a in (0, 1) for b in (0, 1, 5)]).ok


def test_hostile_names_are_escaped_xml_and_score_exactly():
    model = hostile_model()
    text = pmml.render(model)
    doc = ET.fromstring(text)  # well-formed whatever the names hold
    names = [f.get("name") for f in doc.iterfind(".//p:DataField", NS)]
    assert SQLI in names and CAT in names
    values = {p.get("value") for p in doc.iterfind(".//p:SimplePredicate", NS)}
    assert set(CATEGORIES[:5]) <= values  # quotes, backslashes, SQL: exact values in attributes
    assert "<script>" not in text
    result = check(model, hostile_rows())
    assert result.ok, result.line()


@pytest.mark.parametrize("model,why", [
    (Model(kind="linear", target=Target("y", 1), inputs=(Input("a", "numeric"),), terms=(), intercept=1),
     "no terms"),
    (Model(kind="linear", target=Target("y", 1), inputs=(Input("bell\x07", "numeric"),),
           terms=(Term("bell\x07", ">=", 1, 1, "ring"),), intercept=0), "XML 1.0 cannot carry"),
    (Model(kind="linear", target=Target("y", 1), inputs=(Input("c", "categorical"),),
           terms=(Term("c", "==", "esc\x1b[31m", 1, "red"),), intercept=0), "XML 1.0 cannot carry"),
])
def test_models_pmml_cannot_hold_are_refused_with_the_reason(model, why):
    with pytest.raises(ExportError, match=why):
        pmml.render(model)
    assert verify_module.check_pmml(model, verify_module.cases_for(model, [{"a": 1, "bell\x07": 1, "c": "x"}])).ok is None


def test_a_label_with_a_control_character_is_a_visible_reason_code():
    model = Model(kind="linear", target=Target("y", 1), inputs=(Input("a", "numeric"),),
                  terms=(Term("a", ">=", 1, 1, "ring\x07 \u202ebell"),), intercept=0)
    assert pmml.reason_codes(model) == ["ring[U+0007] [U+202E]bell"]
    assert check(model, [{"a": 0}, {"a": 2}]).ok


def _trained(kind: str) -> tuple[Model, list[dict]]:
    """A TILM on numeric columns with risk steps at 60 and 75 (rules that overlap on one
    column) and an M-of-N table on text columns (rules and negations on the raw levels), each
    proven at once (work limit / exhaustive search; the time limit is only a safety net)."""
    import numpy as np
    import pandas as pd
    from scorecard.trainer.data.prepare import prepare
    from scorecard.trainer.options.config import TrainConfig
    from scorecard.trainer.train import train

    rng = np.random.default_rng(0)
    if kind == "tilm":
        frame = pd.DataFrame({"age": rng.integers(30, 90, 150), "nodes": rng.integers(0, 8, 150)})
        risk = (frame.age >= 60).astype(int) + (frame.age >= 75) + 2 * (frame.nodes >= 3) + rng.normal(0, 0.4, 150)
        frame["y"] = (risk >= 2).astype(int)
        config = TrainConfig(model="tilm", c0=0.01, max_thresholds=8, coef_min=-3, coef_max=3, time_limit=120)
        model = train(prepare(frame, "y"), config.with_options(work_limit=1))
    else:
        frame = pd.DataFrame({"odor": rng.choice(["none", "foul", "almond", "anise"], 120),
                              "ring": rng.choice(["one", "two"], 120)})
        frame["y"] = ((frame.odor != "none") & (frame.odor != "almond") | (frame.ring == "two")).astype(int)
        model = train(prepare(frame, "y"), TrainConfig(model="mofn", c0=0.001, time_limit=120))
    rows = frame.drop(columns="y").to_dict("records")
    return model, rows + [{k: None for k in rows[0]}]


@pytest.mark.parametrize("kind", ["tilm", "mofn"])
def test_trained_tilm_and_m_of_n_models_run_in_the_engine_and_the_matrix_graph(kind):
    model, rows = _trained(kind)
    groups = pmml.characteristics(model)
    if kind == "tilm":  # rules on one column can hold together: one Characteristic each
        assert len(groups) == len(model.terms) > len({t.input for t in model.terms})
    else:  # levels of one text column: one Characteristic per column
        assert len(groups) == len({t.input for t in model.terms}) < len(model.terms)
    result = check(model, rows)
    assert result.ok, result.line()
    assert verify_module.check_onnx(model, verify_module.cases_for(model, rows), "matrix").ok


def test_line_breaks_and_tabs_in_names_and_categories_survive_the_xml():
    """An attribute's raw line break or tab would read back as a space: they are written as
    character references, so the engine matches the exact name and category."""
    name, column, level = "a\r\nb\tc  ", "c\r", "p\rq\n"
    model = Model(kind="linear", target=Target("y", 1), inputs=(Input(name, "numeric"), Input(column, "categorical")),
                  terms=(Term(name, ">=", 1, 2, "x"), Term(column, "==", level, 1, "cat")), intercept=-1, missing="unmet")
    assert "a&#13;&#10;b&#09;c  " in pmml.render(model)
    rows = [{name: 2, column: level}, {name: 0, column: "p q "}, {name: None, column: None}]
    assert [c.score for c in verify_module.cases_for(model, rows)] == [3, 0, 0]  # the points total
    assert check(model, rows).ok
