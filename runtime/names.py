"""Names (column names, categories, labels) as a person reads them and as a model may hold
them: the one definition of both rules, standard library only.

- :func:`visible`: a name as printed for a person (a card, a page, a comment, a message).
  Control characters (Unicode category Cc: line breaks, terminal escapes), invisible format
  characters (Cf: the bidirectional controls U+202A-U+202E, U+2066-U+2069, U+200E, U+200F,
  U+061C, zero-width characters, a byte order mark, a soft hyphen), the line and paragraph
  separators (Zl, Zp) and lone surrogates (Cs) print as ``[U+XXXX]``, so a category stored
  as ``"\\u202eder"`` reads ``[U+202E]der``, never "red", and no name can drive a terminal.
  Only what a person reads changes: identifiers and literals a machine matches keep the
  exact value (docs/contract.md, "Exports").
- :func:`name_problem`: why a column name or a category cannot be part of a model (a NUL
  character, which SQL stores in no identifier and no text), or None. Training refuses such
  data, reading a model file refuses such a model, the SQL export such an identifier.
"""
from __future__ import annotations

import unicodedata

#: The Unicode categories :func:`visible` shows as code points: control, format (invisible,
#: bidirectional controls among them), line and paragraph separators, lone surrogates.
HIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Zl", "Zp", "Cs"})

#: The characters no column name or category may hold, each with the reason.
FORBIDDEN = {"\x00": "a NUL character (U+0000), which SQL stores in no name and no text"}


def hidden(char: str) -> bool:
    """Whether one character prints as nothing, or moves or reorders other text."""
    return unicodedata.category(char) in HIDDEN_CATEGORIES


def visible(text: str) -> str:
    """``text`` with every hidden character (see :func:`hidden`) shown as ``[U+XXXX]``."""
    if text.isprintable():  # the common case: nothing to show (isprintable is False for all of them)
        return text
    return "".join(f"[U+{ord(c):04X}]" if hidden(c) else c for c in text)


def has_hidden(text: str) -> bool:
    """Whether ``text`` holds a character :func:`visible` would show as a code point."""
    return not text.isprintable() and any(hidden(c) for c in text)


def name_problem(text: str) -> str | None:
    """Why ``text`` cannot be a column name or a category of a model (``"holds a NUL
    character (U+0000), ..."``), or None when it can."""
    for char, why in FORBIDDEN.items():
        if char in text:
            return f"holds {why}"
    return None
