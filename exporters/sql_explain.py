"""Reason codes in the ``sql`` export (``--explain K``): the columns ``reason_1..reason_K`` and
``points_1..points_K`` of runtime/explain.py, computed by the query itself.

Each row's terms are unpivoted into a small table of ``(i, r, c)``: the term's index, its
wording on the card (runtime/explain.py ``reason_text``, a string literal) and the points it
adds to this row (the very expression the score adds, exporters/sql.py ``term_points``). The
terms with ``c > 0`` are numbered by ``ROW_NUMBER() OVER (ORDER BY c DESC, i)``: the most
points first, equal points in term order, as the runtime ranks them; the k-th reason is the
one numbered k, NULL when fewer terms added points, and every reason is NULL when the row has
no score. Window functions are SQL:2003.

- ``duckdb``, ``postgres`` (``LATERAL``): one ``CROSS JOIN LATERAL`` subquery per row holds
  all 2K columns (each a ``MAX`` over the numbered terms: one sort of the row's terms for
  every reason), reading the row's score from the score's own subquery (``s."score" IS NOT
  NULL``); the terms are a ``VALUES`` list, named ``AS t("i", "r", "c")``.
- ``sqlite``, ``ansi`` (no ``LATERAL``): each of the 2K columns is a scalar subquery over the
  row's terms, NULL where the row has no score: exactly where an input the row cannot be
  scored without (``model.needs_value``) is missing, a test of those columns (sql.py
  ``unscorable``), never the whole sum again. SQLite picks the k-th with ``ORDER BY c DESC, i
  LIMIT 1 OFFSET k - 1`` (several times faster there than a window) from ``VALUES`` (columns
  ``column1..column3``; a ``VALUES`` list has no limit on rows); ANSI, which has no ``LIMIT``,
  numbers them with ``ROW_NUMBER()`` over ``SELECT ... UNION ALL SELECT ...``, which SQLite
  caps at 500 terms: ``ansi`` refuses ``--explain`` for a longer model.
- ``mysql`` (MariaDB: no ``LATERAL``, and a derived table cannot read the outer row): each
  column is a scalar subquery over a constant table of the term numbers ``t.n``, ordered by
  the row's points of term ``t.n`` (a ``CASE t.n WHEN 1 THEN ... END`` of the term
  expressions) descending, then ``t.n``, ``LIMIT 1 OFFSET k - 1``: the k-th term is a reason
  when its points are > 0 (then at least k terms added points), else NULL.
- ``clickhouse`` (whose subqueries cannot read the row where they hold a window or a
  ``LIMIT``): the row's terms as an array of tuples ``(-points, number, text, points)``, those
  with points > 0 kept and sorted (``Dialect.reason_array``); the k-th reason is the k-th
  element's text, NULL past the array's end.
- ``spark`` (whose ``VALUES`` list cannot read the outer row): the same array, of structs
  ``named_struct('n', -points, 'i', number, 'r', text, 'c', points)``, built once per row in
  a ``CROSS JOIN LATERAL`` subquery ``e``.
"""
from __future__ import annotations

from scorecard.runtime import Model
from scorecard.runtime.explain import check_k, reason_columns, reason_texts

from .registry import ExportError
from .sql_dialects import Dialect, ReasonArray
from .sql_names import clashing_input

#: The name the ``clickhouse`` query gives the array of a row's ranked terms (``Dialect.reason_array``).
ARRAY_NAME = "scorecard_ranked_terms"
#: SQLite's default SQLITE_MAX_COMPOUND_SELECT: the most ``UNION ALL`` branches it parses.
MAX_UNION = 500


def _terms(model: Model, d: Dialect, points: list[str]) -> str:
    """The row's terms as a derived table ``t`` with columns ``"i"``, ``"r"``, ``"c"``."""
    texts = reason_texts(model)
    rows = [(str(k + 1), d.string(text), sql) for k, (text, sql) in enumerate(zip(texts, points))]
    if d.name == "ansi":
        if len(rows) > MAX_UNION:
            raise ExportError(f"the model has {len(rows)} terms; an ansi query with --explain lists them in a "
                              f"UNION ALL, which SQLite caps at {MAX_UNION}: use the sqlite, duckdb or postgres dialect")
        first, rest = rows[0], rows[1:]
        union = f'SELECT {first[0]} AS "i", {first[1]} AS "r", {first[2]} AS "c"'
        union += "".join(f"\n            UNION ALL SELECT {i}, {r}, {c}" for i, r, c in rest)
        return f"({union}) AS t"
    values = ",\n            ".join(f"({i}, {r}, {c})" for i, r, c in rows)
    if d.lateral:
        return f'(VALUES {values}) AS t("i", "r", "c")'
    return f'(SELECT column1 AS "i", column2 AS "r", column3 AS "c" FROM (VALUES {values})) AS t'


def reason_sql(model: Model, d: Dialect, k: int, points: list[str], score: str | None,
               unscorable: str | None) -> tuple[list[tuple[str, str]], list[str]]:
    """The reason columns as (SQL, name) pairs and the joins they need.

    ``points``: each term's points for the row (term order); ``score``: the row's score as a
    column of an earlier ``LATERAL`` subquery (dialects with ``lateral``); ``unscorable``: the
    condition under which the row has no score (the others; None when every row has one)."""
    k = check_k(k)
    names = reason_columns(k)
    for name in names:
        clash = clashing_input(model, name)
        if clash is not None:
            raise ExportError(f"input {clash!r} clashes with the column {name!r} --explain adds "
                              "(SQLite, DuckDB and MariaDB read names without regard to case); rename it")
    if not points:  # no terms: no reasons
        return [(f"NULL AS {d.ident(name)}", name) for name in names], []
    if d.reason_array is not None:
        return _in_array(model, d, d.reason_array, names, k, points, unscorable)
    if not d.derived_outer:
        return _by_term_number(model, d, names, k, points, unscorable), []
    terms = _terms(model, d, points)
    if d.lateral:
        picks = [f'MAX(CASE WHEN u."rn" = {j % k + 1} THEN u."{"r" if j < k else "c"}" END) AS {d.ident(name)}'
                 for j, name in enumerate(names)]
        join = ("CROSS JOIN LATERAL (SELECT " + ",\n    ".join(picks) +
                f'\n    FROM (SELECT t."r", t."c", ROW_NUMBER() OVER (ORDER BY t."c" DESC, t."i") AS "rn"'
                f"\n        FROM {terms}"
                f'\n        WHERE {score} IS NOT NULL AND t."c" > 0) AS u) AS e')
        return [(f"e.{d.ident(name)}", name) for name in names], [join]
    columns = []
    for j, name in enumerate(names):
        col, rank = ("r", j + 1) if j < k else ("c", j + 1 - k)
        if d.name == "sqlite":
            pick = (f'(SELECT t."{col}" FROM {terms}\n    WHERE t."c" > 0 ORDER BY t."c" DESC, t."i" '
                    f"LIMIT 1 OFFSET {rank - 1})")
        else:
            pick = (f'(SELECT u."{col}" FROM (SELECT t."r", t."c", ROW_NUMBER() OVER (ORDER BY t."c" DESC, t."i") '
                    f'AS "rn"\n        FROM {terms}\n        WHERE t."c" > 0) AS u WHERE u."rn" = {rank})')
        columns.append(_column(d, name, pick, unscorable))
    return columns, []


def _by_term_number(model: Model, d: Dialect, names: list[str], k: int, points: list[str],
                    unscorable: str | None) -> list[tuple[str, str]]:
    """The reason columns for a dialect whose derived tables cannot read the row (MariaDB)."""
    n = d.ident("n")
    numbers = " UNION ALL ".join(f"SELECT {j}" + (f" AS {n}" if j == 1 else "") for j in range(1, len(points) + 1))
    texts = [d.string(text) for text in reason_texts(model)]

    def of(values: list[str]) -> str:
        return f"CASE t.{n} " + " ".join(f"WHEN {j} THEN {v}" for j, v in enumerate(values, start=1)) + " END"

    c = of(points)
    columns = []
    for j, name in enumerate(names):
        value, rank = (of(texts), j + 1) if j < k else (c, j + 1 - k)
        pick = (f"(SELECT CASE WHEN {c} > 0 THEN {value} END\n    FROM ({numbers}) AS t\n    "
                f"ORDER BY {c} DESC, t.{n} LIMIT 1 OFFSET {rank - 1})")
        columns.append(_column(d, name, pick, unscorable))
    return columns


def _in_array(model: Model, d: Dialect, a: ReasonArray, names: list[str], k: int, points: list[str],
              unscorable: str | None) -> tuple[list[tuple[str, str]], list[str]]:
    """The reason columns read from a sorted array of the row's terms (``a``, the dialect's
    ``reason_array``), and the join that holds the array where the dialect has ``LATERAL``."""
    typed = [a.points.format(c=c, type=a.types[0 if model.whole_scores else 1]) for c in points]
    items = ", ".join(a.item.format(i=j, r=d.string(text), c=c)
                      for j, (text, c) in enumerate(zip(reason_texts(model), typed), start=1))
    ranked = a.ranked.format(items=items)
    first = later = ranked  # where the array first appears, and after that
    joins = []
    if d.lateral:  # once per row in a subquery of its own, read through its alias (no column can shadow it)
        joins = [f"CROSS JOIN LATERAL (SELECT {ranked} AS {d.ident(ARRAY_NAME)}) AS e"]
        first = later = f"e.{d.ident(ARRAY_NAME)}"
    elif a.named is not None:
        if any(inp.name == ARRAY_NAME for inp in model.inputs):
            raise ExportError(f"input {ARRAY_NAME!r} clashes with the name the {d.name} query gives its reasons: rename it")
        first, later = a.named.format(a=ranked, name=d.ident(ARRAY_NAME)), d.ident(ARRAY_NAME)
    columns = []
    for j, name in enumerate(names):
        field, rank = (a.fields[0], j + 1) if j < k else (a.fields[1], j + 1 - k)
        pick = (f"CASE WHEN {a.size.format(a=first if j == 0 else later)} >= {rank}\n    "
                f"THEN {a.pick.format(a=later, k=rank, field=field)} END")
        columns.append(_column(d, name, pick, unscorable))
    return columns, joins


def _column(d: Dialect, name: str, pick: str, unscorable: str | None) -> tuple[str, str]:
    """A reason column ``name`` from its expression: NULL where the row has no score."""
    if unscorable is not None:
        pick = f"CASE WHEN {unscorable} THEN NULL ELSE {pick} END"
    return f"{pick} AS {d.ident(name)}", name
