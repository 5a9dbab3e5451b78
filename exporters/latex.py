"""The ``latex`` export: a standalone document that ``pdflatex`` turns into the scorecard.

The page is the card of the paper's figures in booktabs style, on one Letter (default) or
A4 page (``paper="a4"``). It needs only packages of texlive-latex-base/recommended
(inputenc, fontenc, lmodern, geometry, array, booktabs, tabularx).

The template uses LaTeX-safe Jinja2 delimiters (``((* block *))``, ``((( variable )))``,
``((= comment =))``) and escapes *every* printed value (see :func:`tex`); pieces that are
already LaTeX are wrapped in :class:`TeX`. Characters pdflatex cannot typeset with T1
fonts (CJK, emoji, Greek, ...) print as ``[U+732B]`` (never ``?``, so two different names
never look alike) and the page then says why. Control and invisible format characters
(bidirectional controls, a soft hyphen, zero-width characters) print as ``[U+202E]`` too,
as in every format a person reads (runtime/names.py).
"""
from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from functools import lru_cache

import jinja2

from scorecard.runtime import Model
from scorecard.runtime.names import visible

from .layout import Card, Row, card
from .registry import ExportError, Exporter, register

PAPERS = ("letter", "a4")
#: Conditions up to this many characters fit one line of a compact table.
SHORT = 48

#: ASCII characters that are special to LaTeX or form ligatures in T1 fonts (``--``,
#: ``<<``, ``,,``, ``!```), written so they print as themselves.
_ASCII = {
    "\\": r"\textbackslash{}", "{": r"\{", "}": r"\}", "$": r"\$", "&": r"\&", "#": r"\#",
    "%": r"\%", "_": r"\_", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}",
    "|": r"\textbar{}", "'": r"\textquotesingle{}", "`": r"\textasciigrave{}", '"': r"\textquotedbl{}",
    "[": "{[}", "]": "{]}", "-": "-{}", "<": "<{}", ">": ">{}", ",": ",{}", "!": "!{}", "?": "?{}",
}

#: Non-ASCII symbols the scorecards themselves print (a risk table's ``≥ 2.5``), in math mode.
_SYMBOLS = {"\u2264": r"$\leq$", "\u2265": r"$\geq$"}

#: Latin-1 Supplement and Latin Extended-A minus the letters T1 has no glyph for, plus
#: dashes and curly quotes: what ``inputenc`` (utf8) + ``fontenc`` (T1) typeset.
_TYPESET = (set(map(chr, range(0xA0, 0x180))) - set("\u0126\u0127\u0138\u013f\u0140\u0149\u0166\u0167\u017f")
            | set("\u2013\u2014\u2018\u2019\u201c\u201d"))


class TeX(str):
    """A string that is already LaTeX source (printed by the template as is)."""


def _char(c: str) -> str:
    if c in _ASCII:
        return _ASCII[c]
    if c in _SYMBOLS:
        return _SYMBOLS[c]
    if " " <= c <= "~" or c in _TYPESET:
        return c
    if unicodedata.category(c) != "Cc":
        compatible = unicodedata.normalize("NFKD", c)
        bare = "".join(d for d in compatible if not unicodedata.combining(d))
        for plain in (unicodedata.normalize("NFC", compatible), bare):
            if plain and all(" " <= d <= "~" or d in _TYPESET for d in plain):
                return "".join(_ASCII.get(d, d) for d in plain)
    return rf"\scchar{{{ord(c):04X}}}"


def tex(text: object) -> str:
    """``text`` as LaTeX that prints it literally (see the module docstring)."""
    if isinstance(text, TeX):
        return text
    return "".join(_char(c) for c in unicodedata.normalize("NFC", visible(str(text))))


def condition(row: Row) -> TeX:
    """A row's condition with ``\\geq`` for ``>=``; the names escaped; a labelled input's exact
    column name after it in small type."""
    op = {">=": r"$\geq$", "<": r"$<$"}.get(row.op, tex(row.op))
    text = " ".join(part for part in (tex(row.subject), op, tex(row.value)) if part)
    return TeX(text + (rf" {{\scriptsize\texttt{{{tex(row.raw)}}}}}" if row.raw else ""))


def _size(c: Card) -> tuple[str, str]:
    """Font size and row spacing that keep a tall card on one page."""
    n = len(c.rows)
    if n <= 16:
        return "normalsize", "1.45"
    if n <= 30:
        return "small", "1.2"
    if n <= 45:
        return "footnotesize", "1.05"
    return "scriptsize", "1.0"


@dataclass(frozen=True)
class Table:
    """The card's table: a compact ``tabular`` when conditions are short (as the paper's
    figures), else a full-width ``tabularx`` whose condition column wraps."""

    env: TeX
    width: TeX
    column: TeX


def _table(c: Card) -> Table:
    if max((len(row.condition()) for row in c.rows), default=0) <= SHORT:
        return Table(TeX("tabular"), TeX(""), TeX("l"))
    return Table(TeX("tabularx"), TeX(r"{\textwidth}"), TeX("L"))


@lru_cache(maxsize=1)
def _env() -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.PackageLoader("scorecard.templates", "."),
        block_start_string="((*", block_end_string="*))",
        variable_start_string="(((", variable_end_string=")))",
        comment_start_string="((=", comment_end_string="=))",
        trim_blocks=True, lstrip_blocks=True, autoescape=False, finalize=tex,
        undefined=jinja2.StrictUndefined)


def render_latex(model: Model, paper: str = "letter") -> str:
    """The scorecard of ``model`` as a LaTeX document for ``paper`` (``letter`` or ``a4``)."""
    if paper not in PAPERS:
        raise ExportError(f"unknown paper {paper!r} for the latex export (known: {', '.join(PAPERS)})")
    c = card(model)
    size, stretch = _size(c)
    return _env().get_template("scorecard.tex.j2").render(
        card=c, model=model, paper=TeX(paper), size=TeX(size), stretch=TeX(stretch),
        table=_table(c), conditions=[condition(row) for row in c.rows])


register(Exporter("latex", ".tex", render_latex, "the scorecard as a standalone LaTeX document (pdflatex)"))
