"""Names a user gives the ``sql`` export on the command line: a dotted table or view path
(``--table ehr.vitals``, ``--as view reports.scored``) and a list of columns (``--keep id,age``).

A part is written as is (``ehr``, ``Heart patients 2024``), or between double quotes when it
holds the separator or a double quote itself, as in SQL (``"my.db".vitals``, ``"a,b",id``,
``"a ""quoted"" word"``). The export quotes every part again for the dialect (sql_dialects.py
``Dialect.ident``), so the engine reads exactly the names given; a part it cannot quote safely
(empty, a NUL character, too long for PostgreSQL) is a one-line error. Only the syntax can be
checked here: whether the table holds a column is the engine's to say when the query runs.
``clashing_input`` finds an input the engines would take for a column the query adds.
"""
from __future__ import annotations

from scorecard.runtime import Model

from .registry import ExportError


def split_names(text: str, separator: str, what: str) -> list[str]:
    """The parts of ``text`` between ``separator`` characters outside double quotes, each
    unquoted (``""`` inside quotes is one ``"``). ``what`` names the option in errors."""
    parts: list[str] = []
    k = 0
    while True:
        if text.startswith('"', k):  # a quoted part: up to the lone closing quote
            end, part = k + 1, []
            while True:
                close = text.find('"', end)
                if close < 0:
                    raise ExportError(f"{what} {text!r}: a quote opened at character {k + 1} is never closed")
                part.append(text[end:close])
                if not text.startswith('"', close + 1):
                    break
                part.append('"')
                end = close + 2
            name, k = "".join(part), close + 1
            if k < len(text) and text[k] != separator:
                raise ExportError(f"{what} {text!r}: after a quoted name comes {separator!r} or the end, "
                                  f"not {text[k]!r}")
        else:
            end = text.find(separator, k)
            end = len(text) if end < 0 else end
            name = text[k:end]
            if '"' in name:
                raise ExportError(f"{what} {text!r}: a name holding a double quote is written between double "
                                  f'quotes, the quote doubled ("say ""hi""")')
            k = end
        if name == "":
            raise ExportError(f"{what} {text!r}: an empty name (write a name between each {separator!r})")
        parts.append(name)
        if k >= len(text):
            return parts
        k += 1  # past the separator
        if k == len(text):
            raise ExportError(f"{what} {text!r}: an empty name after the last {separator!r}")


def clashing_input(model: Model, column: str) -> str | None:
    """The input of ``model`` whose name the engines would take for ``column``, a column the
    query adds, or None. SQLite, DuckDB and MariaDB read a name without regard to case (a
    table column ``Score`` and the query's ``score`` are one name there: wrapped in a CTE or a
    view, the query would read the input where it means its own column, or fail), so the
    names are compared casefolded."""
    return next((inp.name for inp in model.inputs if inp.name.casefold() == column.casefold()), None)
