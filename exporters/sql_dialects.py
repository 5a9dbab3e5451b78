"""What differs between SQL dialects, as a small table (the way sqlglot keeps dialects).

Everything the SQL exporter writes that is not plain SQL-92 goes through a :class:`Dialect`:
how identifiers and string literals are quoted, how an exact binary double is written, and
how a floating-point NaN is recognised. Adding a dialect is adding one row to ``DIALECTS``.
"""
from __future__ import annotations

from dataclasses import dataclass

from .registry import ExportError


@dataclass(frozen=True)
class Dialect:
    """One SQL dialect's spelling of the few things the scoring query needs.

    ``double`` is written around the ``repr`` of a Python float so the engine parses it to
    the same IEEE double (a bare ``0.1`` is an exact DECIMAL in PostgreSQL and DuckDB, which
    would make float scores differ from Python's). ``nan_test`` is None where the engine
    has no NaN (SQLite stores NaN as NULL; ANSI SQL has none).
    """

    name: str
    double: str
    nan_test: str | None
    backslash_escapes: bool = False

    def ident(self, name: str) -> str:
        """A quoted identifier: any name is safe (double quotes are doubled)."""
        if "\x00" in name:
            raise ExportError(f"SQL identifiers cannot hold a NUL character: {name!r}")
        return '"' + name.replace('"', '""') + '"'

    def string(self, text: str) -> str:
        """A string literal: single quotes doubled; in PostgreSQL a text with a backslash is
        written as ``E'...'`` with the backslash doubled, which reads the same whatever
        ``standard_conforming_strings`` is set to."""
        if "\x00" in text:
            raise ExportError(f"SQL strings cannot hold a NUL character: {text!r}")
        body = text.replace("'", "''")
        if self.backslash_escapes and "\\" in text:
            return "E'" + body.replace("\\", "\\\\") + "'"
        return "'" + body + "'"

    def number(self, value: int | float) -> str:
        """A number literal: integers as integers (integer arithmetic stays exact), floats
        as the same IEEE double Python holds."""
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ExportError(f"not a number: {value!r}")
        if isinstance(value, int):
            return str(value)
        return self.double.format(repr(value))

    def is_nan(self, column: str) -> str | None:
        """A condition true when ``column`` holds NaN, or None when the engine has no NaN."""
        return None if self.nan_test is None else self.nan_test.format(column)


DIALECTS: dict[str, Dialect] = {
    "sqlite": Dialect("sqlite", double="{}", nan_test=None),
    "duckdb": Dialect("duckdb", double="CAST('{}' AS DOUBLE)", nan_test="isnan({})"),
    "postgres": Dialect("postgres", double="CAST('{}' AS DOUBLE PRECISION)",
                        nan_test="{} = CAST('NaN' AS DOUBLE PRECISION)", backslash_escapes=True),
    "ansi": Dialect("ansi", double="CAST('{}' AS DOUBLE PRECISION)", nan_test=None),
}


def dialect(name: str) -> Dialect:
    """The dialect called ``name``, or an error listing the known ones."""
    try:
        return DIALECTS[name]
    except KeyError:
        raise ExportError(f"unknown SQL dialect {name!r} (known: {', '.join(sorted(DIALECTS))})") from None
