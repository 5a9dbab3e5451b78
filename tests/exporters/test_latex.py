"""The latex export compiled by pdflatex, as a user would: one page, the same card."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import pytest
from engines import pdf_info, pdf_text, pdflatex, squash
from paper_models import ALL, breastcancer
from scorecard.exporters.latex import render_latex, tex
from scorecard.exporters.layout import card
from scorecard.runtime.names import visible
from scorecard.exporters.registry import ExportError
from scorecard.runtime import Input, Model, Target, Term


@dataclass(frozen=True)
class Compiled:
    info: dict[str, str]
    text: str


@pytest.fixture(scope="session")
def compiled(tmp_path_factory: pytest.TempPathFactory) -> Callable[..., Compiled]:
    folder = tmp_path_factory.mktemp("latex")
    done: dict[tuple[str, str], Compiled] = {}

    def get(name: str, paper: str = "letter") -> Compiled:
        if (name, paper) not in done:
            source = folder / f"{name}-{paper}.tex"
            source.write_text(render_latex(ALL[name](), paper=paper), encoding="utf-8")
            pdf = pdflatex(source)
            done[name, paper] = Compiled(pdf_info(pdf), pdf_text(pdf))
        return done[name, paper]

    return get


@pytest.mark.parametrize("name", ALL)
def test_compiles_to_one_page(compiled, name):
    assert compiled(name).info["Pages"] == "1"


@pytest.mark.parametrize("name", ALL)
def test_pdf_shows_title_rows_and_points(compiled, name):
    c = card(ALL[name]())
    text = squash(compiled(name).text)
    assert squash(c.title.replace("猫", "[U+732B]").replace("🙂", "[U+1F642]")) in text
    assert squash(c.total_label) in text
    for row in c.rows:
        condition = visible(row.condition({">=": "\u2265"})).replace("猫", "[U+732B]").replace("🙂", "[U+1F642]")
        assert squash(f"{row.number}.") in text
        assert squash(condition) in text
        if not c.is_rules:
            assert squash(row.points_text) in text


def test_specials_and_accents_print_literally(compiled):
    text = squash(compiled("hostile").text)
    for literal in ('</script><script>alert("x")</script>&<!--éü', "%$#_{}~^\\'q'", "a--b", "<<c>>", ",,d", "[e]"):
        assert squash(literal) in text


def test_characters_without_a_glyph_show_their_code_point_and_a_note(compiled):
    text = squash(compiled("hostile").text)
    assert "[U+732B][U+1F642]" in text
    assert squash("Names with characters pdflatex cannot print show them as [U+code point]") in text
    assert "[U+" not in squash(compiled("breastcancer").text)


def test_risk_table_and_missing_note(compiled):
    text = squash(compiled("sleep_apnea").text)
    assert squash("SCORE < 4 \u2265 4 \u2265 8 \u2265 12") in text
    assert squash("RISK 4.0% 7.6%") in text
    assert squash("(body mass index: use 27.5)") in text


def test_a4_paper(compiled):
    info = compiled("long_card", "a4")
    assert info.info["Pages"] == "1"
    assert "A4" in info.info["Page size"]


def test_unknown_paper_is_refused():
    with pytest.raises(ExportError, match="paper"):
        render_latex(breastcancer(), paper="legal")


def test_accents_decompose_before_falling_back_to_code_points():
    assert tex("ǅ ﬁ") == "Dž fi"
    assert tex("Ω") == r"\scchar{03A9}"
    assert tex("e\u0301") == "é"


def test_unmet_rule_is_a_note_under_the_card(compiled):
    text = squash(compiled("diabetes_unmet").text)
    assert squash("glu unknown") in text
    assert squash("An unknown value meets no condition on that input, except its 'unknown' rows.") in text.replace("\u2019", "'")
    assert squash("Without a value for glu there is no score.") in squash(compiled("glucose_linear_unmet").text)


def test_bidi_controls_and_invisible_characters_print_as_code_points(tmp_path):
    """Issue 12, item 3: a category stored as "\\u202eder" prints "[U+202E]der"; a soft hyphen or a
    zero-width space, which pdflatex would print as nothing, shows too."""
    model = Model(kind="linear", target=Target("y", 1),
                  inputs=(Input("colo\u202dur", "categorical", ("\u202eder",)), Input("soft\u00adhy\u200bphen", "binary")),
                  terms=(Term("colo\u202dur", "==", "\u202eder", 2, ""), Term("soft\u00adhy\u200bphen", "==", 1, 1, "")),
                  intercept=-1)
    source = tmp_path / "bidi.tex"
    source.write_text(render_latex(model), encoding="utf-8")
    text = squash(pdf_text(pdflatex(source)))
    assert squash("colo[U+202D]ur = [U+202E]der") in text
    assert squash("soft[U+00AD]hy[U+200B]phen") in text


def test_a_labelled_card_compiles_with_its_words(compiled):
    text = squash(compiled("labelled").text)
    for words in ("Breast cancer: benign or malignant?", "PREDICT benign (Benign = 1) IF SCORE > 17",
                  "Uniformity of cell size (grade 1-10)", "UniformityOfCellSize", "Bare nuclei */ -- [U+000A]<b>&%"):
        assert squash(words) in text, words
    assert compiled("labelled").info["Pages"] == "1"
