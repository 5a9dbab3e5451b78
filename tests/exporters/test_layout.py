"""How a model reads on paper: the rows every paper-like format (html, latex, text) draws."""
from __future__ import annotations

import random

import pytest
from paper_models import breastcancer, long_card, m_of_n, mushroom, sleep_apnea
from scorecard.exporters.layout import card, number_text
from scorecard.runtime import Input, Model, ModelError, Target, Term, score
from scorecard.runtime.score import contribution


def lines(model: Model) -> list[tuple[str, str]]:
    return [(row.condition(), row.points_text) for row in card(model).rows]


def test_breastcancer_reads_like_the_papers_figure():
    c = card(breastcancer())
    assert c.title == "PREDICT Benign = 1 IF SCORE > 17"
    assert lines(breastcancer()) == [("UniformityOfCellSize", "\u00d7 4"), ("BareNuclei", "\u00d7 2")]
    assert c.total_label == "ADD POINTS FROM ROWS 1-2"


def test_categorical_rows_with_equal_points_merge_into_one_in_row():
    c = card(mushroom())
    assert c.title == "PREDICT class = poisonous IF SCORE > 3"
    assert lines(mushroom()) == [
        ("spore_print_color = green", "4 points"), ("odor in {none, almond, anise}", "-4 points"),
        ("stalk_surface_above_ring = grooves", "2 points"), ("population = clustered", "2 points"),
        ("gill_size = broad", "-2 points")]
    assert [row.number for row in c.rows] == [1, 2, 3, 4, 5]


def _categorical(*terms: Term) -> Model:
    return Model(kind="linear", target=Target("y", 1), inputs=(Input("c", "categorical"),), terms=terms,
                 intercept=0)


def test_rows_whose_sum_would_change_are_not_merged():
    overlapping = _categorical(Term("c", "in", ("a", "b"), 2, ""), Term("c", "==", "a", 2, ""))
    fractional = _categorical(Term("c", "==", "a", 0.5, ""), Term("c", "==", "b", 0.5, ""))
    unequal = _categorical(Term("c", "==", "a", 1, ""), Term("c", "==", "b", 2, ""))
    for model in (overlapping, fractional, unequal):
        assert len(card(model).rows) == 2


def _candidates(model: Model, inp: Input) -> list:
    """Values of ``inp`` on both sides of every condition the model has on it."""
    values: set = {"numeric": {0, 1, 7}, "binary": {0, 1}, "categorical": {"other"}}[inp.type]
    for t in model.terms:
        if t.input == inp.name and t.value is not None:
            if isinstance(t.value, tuple):
                values |= set(t.value)
            elif isinstance(t.value, str):
                values.add(t.value)
            else:
                values |= {t.value - 1, t.value}
    return sorted(values, key=str)


@pytest.mark.parametrize("build", [mushroom, sleep_apnea, long_card, m_of_n])
def test_adding_the_rows_gives_the_runtime_score(build):
    model = build()
    c = card(model)
    rng = random.Random(0)
    candidates = {inp.name: _candidates(model, inp) for inp in model.used_inputs}
    for _ in range(300):
        row = {name: rng.choice(values) for name, values in candidates.items()}
        points = sum(row[r.input] * r.points if r.multiply
                     else r.points if any(contribution(t, row[r.input]) for t in r.terms) else 0
                     for r in c.rows)
        assert points == score(model, row)


def test_threshold_rows_and_binary_rows():
    assert lines(sleep_apnea())[:5] == [("age >= 60", "18 points"), ("body mass index >= 25", "10 points"),
                                        ("body mass index >= 40", "10 points"), ("snoring", "8 points"),
                                        ("hypertension", "6 points")]


def test_m_of_n_title_counts_rules():
    c = card(m_of_n())
    assert c.title == "PREDICT Benign = 1 IF AT LEAST 5 OF THE FOLLOWING 8 RULES ARE TRUE"
    assert c.rows[0].condition() == "UniformityOfCellSize >= 3"


def test_label_is_the_condition_text_when_given():
    model = _categorical(Term("c", "==", "a", 3, "cough for 2+ weeks"))
    assert lines(model) == [("cough for 2+ weeks", "3 points")]


def test_linear_rows_name_the_input_to_measure():
    model = Model(kind="linear", target=Target("y", 1), inputs=(Input("STDepression", "numeric"),),
                  terms=(Term("STDepression", "linear", None, 0.7, "0.7 x ST depression"),), intercept=-1)
    assert lines(model) == [("STDepression", "\u00d7 0.7")]


def test_threshold_is_minus_the_intercept_written_as_is():
    assert [number_text(x) for x in (17, 17.0, 4.5, -0.0, 0.1 + 0.2)] == ["17", "17", "4.5", "0",
                                                                         "0.30000000000000004"]


def test_missing_policy_is_stated_only_when_values_are_imputed():
    assert "body mass index: use 27.5" in card(sleep_apnea()).missing_note
    assert card(breastcancer()).missing_note == ""


def test_risk_table_is_keyed_by_card_points():
    risks = card(sleep_apnea()).risks
    assert (risks[0].score, risks[0].risk_text) == (0, "4.0%")
    assert [r.score for r in risks] == sorted(r.score for r in risks)


def test_malformed_risk_table_is_refused():
    model = breastcancer()
    with pytest.raises(ModelError, match=r"probability.table\[0\]"):  # the model refuses it (runtime/risk.py)
        Model(kind=model.kind, target=model.target, inputs=model.inputs, terms=model.terms,
              intercept=model.intercept, probability={"method": "table", "table": [{"score": 1, "risk": 1.5}]})


def _with_table(model: Model, table: list[dict]) -> Model:
    return Model(kind=model.kind, target=model.target, inputs=model.inputs, terms=model.terms,
                 intercept=model.intercept, probability={"method": "table", "table": table})


def test_a_few_integer_steps_are_shown_at_every_total_between_them():
    model = breastcancer()
    steps = [{"score": s, "risk": r} for s, r in ((2, 0.1), (5, 0.5), (7, 0.9))]
    risks = card(_with_table(model, steps)).risks
    assert [(r.score_text, r.risk_text) for r in risks] == [
        ("2", "10.0%"), ("3", "10.0%"), ("4", "10.0%"), ("5", "50.0%"), ("6", "50.0%"), ("7", "90.0%")]
    assert not card(_with_table(model, steps)).risk_steps


def test_real_valued_steps_are_labelled_where_each_starts():
    model = breastcancer()
    steps = [{"score": s, "risk": r} for s, r in ((-3.25, 0.0), (0.1 + 0.2, 0.4), (12.5, 1.0))]
    c = card(_with_table(model, steps))
    assert [r.score_text for r in c.risks] == ["< 0.3", "\u2265 0.3", "\u2265 12.5"]
    assert c.risk_steps


def test_unmet_card_has_unknown_rows_and_states_the_rule_once():
    from paper_models import diabetes_unmet, glucose_linear_unmet

    c = card(diabetes_unmet())
    assert ("glu unknown", "1 point") in lines(diabetes_unmet())
    assert ("bmi class unknown", "1 point") in lines(diabetes_unmet())
    assert c.missing_note == "An unknown value meets no condition on that input, except its 'unknown' rows."
    assert card(glucose_linear_unmet()).missing_note.endswith("Without a value for glu there is no score.")


def test_unmet_adding_the_ticked_rows_gives_the_runtime_score_with_unknown_values():
    from paper_models import diabetes_unmet

    model = diabetes_unmet()
    c = card(model)
    rng = random.Random(1)
    candidates = {inp.name: _candidates(model, inp) + [None] for inp in model.used_inputs}
    for _ in range(300):
        row = {name: rng.choice(values) for name, values in candidates.items()}
        points = sum(r.points if any(contribution(t, row[r.input]) for t in r.terms) else 0 for r in c.rows)
        assert points == score(model, row)
