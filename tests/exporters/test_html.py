"""The html export as a user meets it: printed by Chromium, and used as a calculator.

One headless Chromium run per model prints the page to PDF and, through the page's
``#rows=`` address, scores the model's golden rows with the page's own script.
"""
from __future__ import annotations

import json
import re
import unicodedata
from dataclasses import dataclass
from typing import Callable

import pytest
from engines import Elements, chromium, pdf_info, pdf_text, squash
from paper_models import ALL, HOSTILE, hostile, sleep_apnea
from scorecard.exporters.html import SYMBOLS, render_html, script_json
from scorecard.exporters.layout import card
from scorecard.runtime.names import visible
from scorecard.runtime import Input, Model, Target, Term, predict, risk, score


@dataclass(frozen=True)
class Printed:
    """One model's page, its printout and what its script computed."""

    model: Model
    rows: list[dict]
    html: str
    pages: int
    text: str
    dom: Elements


@pytest.fixture(scope="session")
def printed(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], Printed]:
    folder = tmp_path_factory.mktemp("html")
    done: dict[str, Printed] = {}

    def get(name: str) -> Printed:
        if name not in done:
            model = ALL[name]()
            rows = [g.row for g in model.golden] + [{}]
            html = render_html(model)
            page = folder / f"{name}.html"
            page.write_text(html, encoding="utf-8")
            pdf = folder / f"{name}.pdf"
            dom = chromium(page, pdf, rows, folder / "profile")
            done[name] = Printed(model, rows, html, int(pdf_info(pdf)["Pages"]), pdf_text(pdf), Elements(dom))
        return done[name]

    return get


def narrow(text: str) -> str:
    """``squash`` without wide (CJK, emoji) characters: pdftotext places text of fallback
    fonts out of reading order, and this machine may have no emoji font at all."""
    return "".join(c for c in squash(text) if unicodedata.east_asian_width(c) not in "WF")


@pytest.mark.parametrize("name", ALL)
def test_prints_on_one_page(printed, name):
    assert printed(name).pages == 1


@pytest.mark.parametrize("name", ALL)
def test_printout_shows_title_rows_and_points(printed, name):
    p = printed(name)
    c = card(p.model)
    text = narrow(p.text)
    assert narrow(c.title) in text
    assert narrow(c.total_label) in text
    for row in c.rows:
        assert narrow(f"{row.number}.") in text
        assert narrow(visible(row.condition(SYMBOLS))) in text  # a line break in a label reads [U+000A]
        assert not row.raw or narrow(row.raw) in text  # a labelled input's column name, small
        if not c.is_rules:
            assert narrow(row.points_text) in text


@pytest.mark.parametrize("name", ALL)
def test_calculator_scores_rows_like_the_runtime(printed, name):
    p = printed(name)
    computed = json.loads(p.dom.text["batch"])
    expected = [[score(p.model, row), predict(p.model, row)] for row in p.rows]
    assert computed == expected


@pytest.mark.parametrize("name", ALL)
def test_page_makes_no_network_reference(name):
    html = render_html(ALL[name]())
    lowered = html.lower()
    for needle in ("http", "src=", "href=", "url(", "@import", "//"):
        assert needle not in lowered


def test_hostile_names_print_as_text_and_never_run(printed):
    p = printed("hostile")
    text = squash(p.text)
    for shown in ('</script><script>alert("x")</script>', "<!--", "é", "ü", "猫", "a--b", "<<c>>",
                  "%$#_{}~^\\'q'"):
        assert squash(shown) in text
    for dom in (Elements(p.html), p.dom):
        scripts = [attrs for tag, attrs in dom.tags if tag == "script"]
        assert len(scripts) == 2
        assert scripts[0] == {"type": "application/json", "id": "scorecard-model"}


def test_model_data_cannot_close_its_script_block():
    text = script_json({"name": "</script><!-- & \u2028"})
    assert "<" not in text and ">" not in text and "&" not in text
    assert json.loads(text) == {"name": "</script><!-- & \u2028"}


def test_risk_table_is_printed_by_card_score(printed):
    text = squash(printed("sleep_apnea").text)
    assert squash("RISK OF OSA or UARS = yes BY SCORE") in text
    assert squash("SCORE < 4 \u2265 4 \u2265 8 \u2265 12") in text
    assert squash("RISK 4.0% 7.6%") in text


def test_imputed_values_are_stated_on_the_card(printed):
    assert squash("If a value is unknown, use the value the model was trained with (body mass index: use 27.5)") \
        in squash(printed("sleep_apnea").text)


def test_hostile_title_is_escaped_in_the_source():
    html = render_html(hostile())
    assert "<script>alert" not in html
    assert "&lt;/script&gt;&lt;script&gt;alert(&#34;x&#34;)" in html
    assert HOSTILE not in html


@pytest.mark.parametrize("changes, column", [({"age": 65, "snoring": 1}, "24"), ({"female": 1}, "0")])
def test_calculator_marks_the_risk_step_its_total_falls_in(tmp_path, changes, column):
    # sleep_apnea's table holds every 4th total, so it prints as steps ("< 4", "≥ 4", ...):
    # 26 points read the "≥ 24" column, -8 points the first one, as the runtime reads them.
    model = sleep_apnea()
    row = {name.name: 0 for name in model.inputs} | {"age": 40, "body mass index": 20} | changes
    page = tmp_path / "card.html"
    page.write_text(render_html(model), encoding="utf-8")
    dom = Elements(chromium(page, tmp_path / "card.pdf", [row], tmp_path / "profile"))
    marked = {attrs["data-points"] for tag, attrs in dom.tags if "here" in attrs.get("class", "").split()}
    assert marked == {column}
    assert risk(model, score(model, row)) == next(r.risk for r in card(model).risks if str(r.score) == column)


@pytest.mark.parametrize("name", ["diabetes_unmet", "glucose_linear_unmet"])
def test_unmet_calculator_ticks_unknown_rows_for_missing_values(printed, name):
    """Under "unmet" a missing value scores (its "unknown" rows ticked), except a linear input's."""
    p = printed(name)
    computed = json.loads(p.dom.text["batch"])
    assert computed == [[score(p.model, row), predict(p.model, row)] for row in p.rows]
    blanks = [k for k, row in enumerate(p.rows) if any(v is None or (isinstance(v, str) and not v.strip())
                                                       for v in row.values()) or len(row) < len(p.model.inputs)]
    scored = [computed[k][0] is not None for k in blanks]
    if name == "diabetes_unmet":
        assert blanks and all(scored)
    else:  # a missing glu (the linear input) leaves no score; a missing category does not
        assert scored == [score(p.model, p.rows[k]) is not None for k in blanks] and True in scored and False in scored
    assert squash("An unknown value meets no condition on that input") in squash(p.text)
    unknown = [row for row in card(p.model).rows if row.terms[0].op == "missing"]
    boxes = {attrs.get("id"): attrs.get("type") for tag, attrs in p.dom.tags if tag == "input"}
    assert unknown and all(boxes[f"r{row.number}"] == "checkbox" for row in unknown)  # ticked like any condition
    assert all(squash(row.condition(SYMBOLS)) in squash(p.text) for row in unknown)  # "glu unknown" printed


def _bidi_model() -> Model:
    """Issue 12, item 3: names and a category with bidirectional controls and invisible characters."""
    return Model(kind="linear", target=Target("sick\u2067", "yes"),
                 inputs=(Input("colo\u202dur", "categorical", ("\u202eder", "blue")), Input("a\u200bge", "numeric")),
                 terms=(Term("colo\u202dur", "==", "\u202eder", 2, ""), Term("a\u200bge", "linear", None, 1, "")),
                 intercept=-3, missing={"impute": {"a\u200bge": 1}})


def test_bidi_controls_print_as_code_points_and_still_match_exactly(tmp_path):
    """The page shows "[U+202E]der", never a "red" that is not the category; the calculator
    still matches the exact stored value (and not the plain "der")."""
    model = _bidi_model()
    page, pdf = tmp_path / "bidi.html", tmp_path / "bidi.pdf"
    html = render_html(model)
    page.write_text(html, encoding="utf-8")
    rows = [{"colo\u202dur": "\u202eder", "a\u200bge": 2}, {"colo\u202dur": "der", "a\u200bge": 2}]
    dom = Elements(chromium(page, pdf, rows, tmp_path / "profile"))
    text = squash(pdf_text(pdf))
    assert squash("colo[U+202D]ur = [U+202E]der") in text
    assert squash("a[U+200B]ge") in text and squash("PREDICT sick[U+2067] = yes IF SCORE > 3") in text
    batch = json.loads(dom.text["batch"])
    assert batch == [[score(model, row), predict(model, row)] for row in rows] and [p for _, p in batch] == [1, 0]
    outside_data = html.split('id="scorecard-model">')[0]  # the page before its JSON model block
    assert not any(c in outside_data for c in "\u202d\u202e\u200b\u2067")


def _reading_model() -> Model:
    """"a" linear (1 point: the score shows the number read), "b" two conditions under
    "unmet" (a blank b scores its 'unknown' 5 points, a refused one no score)."""
    from scorecard.runtime import Input, Target, Term

    return Model("linear", Target("y", 1), (Input("a", "numeric"), Input("b", "numeric")),
                 (Term("a", "linear", None, 1, "a"), Term("b", ">=", 0, 2, "b >= 0"),
                  Term("b", "missing", None, 5, "b unknown")), 0, missing="unmet")


def test_calculator_reads_every_tricky_number_as_the_runtime(tmp_path):
    """Issue 12 item 8: the page reads a cell exactly as the runtime: hex, binary, octal,
    underscores, non-ASCII digits, a BOM, whitespace, signs, exponents, inf/nan, huge integers
    and blanks, each in a linear input (its number shows in the score) and a conditional one
    (a blank scores the 'unknown' points)."""
    from numbers_table import READ
    from scorecard.runtime import RowError

    model = _reading_model()
    rows = [row for cell in READ for row in ({"a": cell, "b": "0"}, {"a": "0", "b": cell})]

    def runtime(row):
        try:
            return [score(model, row), predict(model, row)]
        except RowError:
            return [None, None]

    page = tmp_path / "card.html"
    page.write_text(render_html(model), encoding="utf-8")
    computed = json.loads(Elements(chromium(page, tmp_path / "card.pdf", rows, tmp_path / "profile")).text["batch"])
    differ = {repr(row["a"] if row["b"] == "0" else row["b"]): (got, runtime(row))
              for row, got in zip(rows, computed) if got != runtime(row)}
    assert differ == {}


def test_calculator_strips_exactly_the_whitespace_the_runtime_strips():
    """The page's whitespace class is the set of str.strip(): every character of it."""
    import re
    from pathlib import Path

    from scorecard.runtime.score import WHITESPACE

    js = (Path(__file__).resolve().parents[2] / "templates" / "scorecard.js").read_text(encoding="utf-8")
    body = re.search(r'var SPACE = "\[(.*?)\]\*";', js).group(1)
    chars = set()
    for a, b in re.findall(r"\\u([0-9a-f]{4})(?:-\\u([0-9a-f]{4}))?", body):
        chars |= {chr(c) for c in range(int(a, 16), int(b or a, 16) + 1)}
    assert chars == set(WHITESPACE) == {chr(c) for c in range(0x110000) if chr(c).isspace()}


def test_a_labelled_card_reads_in_its_words(printed):
    """Issue 14 item 1: title, description, the positive class by name, labels with units and
    the raw column names still findable; the threshold stated once; no 0 % or 100 %."""
    p = printed("labelled")
    text = narrow(p.text)
    for words in ("Breast cancer: benign or malignant?", "683 patients", "PREDICT benign (Benign = 1) IF SCORE > 17",
                  "Uniformity of cell size (grade 1-10)", "UniformityOfCellSize", "BareNuclei",
                  "nuclei without cytoplasm", "Proven optimal on 683 training rows"):
        assert narrow(words) in text, words
    assert not re.search(r"(?<![0-9.])(0\.0|100\.0)%", text) and narrow("> 99.9%") in text
    assert 1 < len(card(p.model).risks) < len(p.model.probability["table"])  # the run of "> 99.9%" is one column
    assert "<b>" not in p.html.split('id="scorecard-model"')[0]  # the hostile label is text, escaped
    assert p.pages == 1
