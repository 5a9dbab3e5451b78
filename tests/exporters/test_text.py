"""``scorecard show``'s text: the card, then how the model was trained."""
from __future__ import annotations

from paper_models import breastcancer, m_of_n, mushroom, sleep_apnea
from scorecard.exporters.text import render_text, width
from scorecard.runtime import Input, Model, Target, Term


def test_breastcancer_card_and_training_certificate():
    text = render_text(breastcancer())
    lines = text.splitlines()
    assert lines[0] == "PREDICT Benign = 1 IF SCORE > 17"
    assert "1.  UniformityOfCellSize      \u00d7 4      ......" in text
    assert "2.  BareNuclei                \u00d7 2    + ......" in text
    assert "ADD POINTS FROM ROWS 1-2  SCORE  = ......" in text
    assert "SCORE is the points total, the score column of `scorecard predict` and of every export." in text
    assert text.count("17") == 1  # the threshold, stated once
    training = text[text.index("HOW IT WAS TRAINED"):]
    for expected in ("solver       cbc", "status       optimal", "objective    0.0412", "lower bound  0.0412",
                     "gap          0 (0.00%)", "time         3.2 s", "train error  0.034 (3.4%)",
                     "rows         683", "params       c0=0.025, coef_max=10, coef_min=-10"):
        assert expected in training


def test_no_training_block_without_training():
    assert "HOW IT WAS TRAINED" not in render_text(mushroom())
    row = next(line for line in render_text(mushroom()).splitlines() if "odor" in line)
    assert row.split() == ["2.", "odor", "in", "{none,", "almond,", "anise}", "-4", "points", "+", "......"]


def test_m_of_n_lists_rules_to_tick():
    text = render_text(m_of_n())
    assert text.startswith("PREDICT Benign = 1 IF AT LEAST 5 OF THE FOLLOWING 8 RULES ARE TRUE\n")
    assert "8.  Mitoses >= 3                   [ ]" in text
    assert "COUNT THE RULES THAT ARE TRUE  = ......" in text


def test_risk_table_and_missing_policy():
    text = render_text(sleep_apnea())
    assert "If a value is unknown, use the value the model was trained with (body mass index: use 27.5)." in text
    assert "RISK BY SCORE" in text
    # integer scores 4 apart span more totals than a card shows: one labelled column per step
    assert "  score       < 4    \u2265 4    \u2265 8" in text
    assert "  risk       4.0%   7.6%  13.8%" in text


def _named(*names: str) -> Model:
    return Model(kind="linear", target=Target("y", 1), inputs=tuple(Input(n, "binary") for n in names),
                 terms=tuple(Term(n, "==", 1, k + 1, "") for k, n in enumerate(names)), intercept=-1)


def test_columns_line_up_with_wide_characters():
    rows = [line for line in render_text(_named("血压高", "age_over_sixty", "fièvre")).splitlines()
            if line.startswith("  ") and "point" in line]
    assert len(rows) == 3
    assert len({width(line[:line.index("point")]) for line in rows}) == 1


def test_control_characters_in_names_cannot_drive_the_terminal():
    text = render_text(_named("red\x1b[31m", "two\nlines"))
    assert "\x1b" not in text
    assert "red[U+001B][31m" in text
    assert "two[U+000A]lines" in text


def test_bidi_controls_in_names_and_categories_show_as_code_points():
    """Issue 12, item 3: a category stored as "\\u202eder" must not read "red" on the card."""
    model = Model(kind="linear", target=Target("y\u2066", "yes\u200f"),
                  inputs=(Input("colo\u202dur", "categorical", ("\u202eder", "blue")), Input("a\u200bge", "numeric")),
                  terms=(Term("colo\u202dur", "==", "\u202eder", 2, ""), Term("a\u200bge", "linear", None, 1, "")),
                  intercept=-1, missing={"impute": {"a\u200bge": 3}})
    text = render_text(model)
    assert all(c.isprintable() or c == "\n" for c in text)
    assert "colo[U+202D]ur = [U+202E]der" in text
    assert "a[U+200B]ge" in text and "y[U+2066] = yes[U+200F]" in text


def test_unmet_card_reads_unknown_rows_and_one_note():
    from paper_models import diabetes_unmet

    text = render_text(diabetes_unmet())
    assert "3.  glu unknown" in text and "6.  bmi class unknown" in text
    assert text.count("unknown value") == 1
    assert "An unknown value meets no condition on that input, except its 'unknown' rows." in text
