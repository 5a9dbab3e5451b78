"""runtime/names.py: a name as a person reads it, and the characters no name may hold."""
from __future__ import annotations

import pytest
from scorecard.runtime.names import has_hidden, name_problem, visible

BIDI = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c"


def test_a_reversed_category_reads_as_its_code_point_not_as_red():
    assert visible("\u202eder") == "[U+202E]der"


@pytest.mark.parametrize("char", list(BIDI) + ["\u200b", "\ufeff", "\u00ad", "\u2028", "\u2029", "\x1b", "\n"])
def test_every_bidi_control_and_invisible_character_is_shown(char):
    assert visible(f"a{char}b") == f"a[U+{ord(char):04X}]b"
    assert has_hidden(f"a{char}b")


@pytest.mark.parametrize("text", ["age", "Größe (cm²) 名前 🙂", "bmi class", "שלום", "x [U+202E] y"])
def test_printable_names_are_left_as_written(text):
    assert visible(text) == text
    assert not has_hidden(text)


def test_a_nul_character_is_the_one_thing_a_name_cannot_hold():
    assert "NUL character (U+0000)" in name_problem("a\x00b")
    assert name_problem("\u202eder") is None and name_problem("") is None
