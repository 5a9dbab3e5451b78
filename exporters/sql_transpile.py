"""SQL dialects written through sqlglot: T-SQL, Oracle, Snowflake, BigQuery.

No engine of theirs runs on a test machine, so their query is not spelled by hand: the query
is written in the dialect the row names first (``Dialect.via``: ``ansi``, which runs unchanged
in SQLite, DuckDB and PostgreSQL, and whose ``prediction`` is already 1/0/NULL, as T-SQL and
Oracle, without a boolean type, need), then parsed and written again by sqlglot, a maintained
SQL parser and transpiler that knows each target's quoting, types and functions. The header
comments are kept (the dialect line names the target); ``verify`` lists these dialects as
"not run: no engine here", never as ok.
"""
from __future__ import annotations

from .registry import ExportError

#: What sqlglot reads the ``via`` query as: the ansi query is PostgreSQL-compatible SQL.
READ_AS = "postgres"


def transpile(text: str, name: str, via: tuple[str, str], statement: bool = False) -> str:
    """``text`` (header comments, then one query), written in ``via``'s first dialect, as
    dialect ``name``'s SQL (``via``'s second: sqlglot's name for it); ``statement``: ending in ``;``."""
    try:
        import sqlglot
        from sqlglot.errors import SqlglotError
    except ImportError:
        raise ExportError(f"the {name} dialect is written by sqlglot, which is not installed "
                          "(pip install 'scorecard[sql]')") from None
    base, target = via
    lines = text.splitlines()
    cut = next(k for k, line in enumerate(lines) if not line.startswith("--"))
    header = [line.replace(f"-- dialect: {base};", f"-- dialect: {name} (written by sqlglot {sqlglot.__version__} "
                                                   f"from the {base} query);", 1)
              for line in lines[:cut]]
    try:
        queries = sqlglot.transpile("\n".join(lines[cut:]), read=READ_AS, write=target, pretty=True,
                                    unsupported_level=sqlglot.ErrorLevel.RAISE)
    except SqlglotError as exc:
        raise ExportError(f"sqlglot cannot write this query in {name}: {str(exc).splitlines()[0]}") from None
    return "\n".join(header) + "\n" + ";\n".join(queries) + (";\n" if statement else "\n")
