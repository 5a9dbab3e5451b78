"""What differs between SQL dialects, as a small table (the way sqlglot keeps dialects).

Everything the SQL exporter writes that is not plain SQL-92 goes through a :class:`Dialect`:
how identifiers and string literals are quoted, how an exact binary double is written, how
a floating-point NaN is recognised and how a blank text is. Adding a dialect is adding one row to ``DIALECTS``.

Spark SQL (``spark``) runs in pyspark's local mode (verify.py, spark_engine.py): backtick
names read without regard to case, backslash escapes in strings, ``D`` doubles, arrays for the
risk table and the reason codes, and a boolean prediction.

Dialects without an engine on a test machine (T-SQL, Oracle, Snowflake, BigQuery) are not
written by hand: their row names a dialect the query is written in first (``via``) and the
sqlglot dialect it is translated to (sql_transpile.py), so one well-kept library owns their
spelling; ``verify`` lists them as not run.

What is the same in every dialect (the query's shape: dotted table paths, ``--keep``, ``--as
view``, the trailing ``;`` of ``--statement``) lives in sql.py and follows from these fields.
"""
from __future__ import annotations

from dataclasses import dataclass

from scorecard.runtime.names import name_problem
from scorecard.runtime.score import WHITESPACE  # what str.strip() removes: a blank text is missing

from .registry import ExportError


@dataclass(frozen=True)
class OneRow:
    """A table-valued function of ``{score}`` giving one row whose column ``value`` is that
    number (NULL: no row), which a dialect without ``LATERAL`` joins to compute a whole-number
    score once per row (sql.py ``_once_join``; SQLite's ``json_each``: its JSON functions are
    built in since 3.38, an option of older builds); ``exact``: a condition on that row
    (``{row}``) true when its value is the number exactly (json_each writes an integer exactly,
    a double with 15 digits)."""

    function: str
    exact: str


@dataclass(frozen=True)
class ReasonArray:
    """Reason codes as an array of each row's terms (sql_explain.py), for an engine whose
    subqueries cannot read the row (ClickHouse cannot decorrelate a window or a LIMIT).

    ``item`` is one term, a tuple ordered by ``-points`` then term number, holding its text
    and points (placeholders ``{i}``, ``{r}``, ``{c}``); ``ranked`` keeps the items with points
    > 0 and sorts them (``{items}``); ``size`` counts them and ``pick`` reads field ``{field}``
    (``r`` or ``c``, as ``fields`` names them) of the ``{k}``-th (1-based) (``{a}``: the ranked array).
    ``points``: each term's points cast to one type, ``{type}`` the first of ``types`` when
    every term adds whole points to any row, else the second (an array holds one type).
    ``named``: the engine names an expression where it first appears and reads it by that
    name anywhere in the SELECT (ClickHouse), so the array is written once, not 4K times
    (a long card's query would pass ClickHouse's 256 KiB ``max_query_size``)."""

    item: str
    ranked: str
    size: str
    pick: str
    fields: tuple[str, str]
    points: str
    types: tuple[str, str]
    named: str | None = None


@dataclass(frozen=True)
class Dialect:
    """One SQL dialect's spelling of the few things the scoring query needs.

    ``double`` is written around the ``repr`` of a Python float so the engine parses it to
    the same IEEE double (a bare ``0.1`` is an exact DECIMAL in PostgreSQL and DuckDB, which
    would make float scores differ from Python's). ``condition_term`` is the points a
    condition adds; where ``term_keeps_null`` it is NULL when the condition is unknown, so a
    missing input makes the sum NULL by itself (SQLite: ``points * (condition)`` is both that
    and its fastest form), elsewhere the query tests for NULL (DuckDB runs ``CASE`` faster
    than a multiplied cast). ``prediction`` is 1, 0, or NULL for a NULL score (DuckDB: the
    comparison cast to INTEGER, one test a row where the ``CASE`` makes two: 7 % fewer
    instructions for adult's risk query, benchmarks/RESULTS.md). ``nan_test`` is None where the
    engine has no NaN (SQLite stores NaN as NULL; ANSI SQL has none); DuckDB's asks for NaN only
    of a FLOAT or DOUBLE column (``DUCKDB_NAN``).
    ``trim`` strips every character Python's ``str.strip()`` strips (runtime/score.py calls a
    text blank when nothing is left) from the column ``{}``: ``{chars}`` is where it names those
    characters, the column ``w."whitespace"`` of a one-row table the query joins once, built
    by the dialect's ``whitespace`` expression from the code points (``char(9, 10, ...)``), so
    a blank test reads ``TRIM(i."x", w."whitespace") = ''`` and the query holds no invisible
    characters. ``whitespace`` is None where ``trim`` needs no character set: ANSI ``TRIM``
    takes one character only and strips spaces, the one approximation of that dialect.

    ``array``: an array literal of ``{items}`` read at the 1-based ``{index}`` (NULL for a
    NULL index), or None without arrays. A risk table of whole scores is then one lookup per
    row instead of a tree of comparisons (DuckDB, three runs on a loaded machine: 1.1-1.7x
    the hand-written score query, the tree 1.9-2.7x; benchmarks/RESULTS.md).

    ``lateral``: the engine joins each row to a subquery over it (``CROSS JOIN LATERAL``), so
    the score is computed once, in a subquery whose only columns are the query's own (no
    column of the table can shadow them), and a long sum is split into stages, each adding at
    most a few hundred terms to the one before (expression depth stays bounded). Without it
    (SQLite, and ANSI, whose query runs unchanged in SQLite too) the score is one expression,
    ``prediction`` repeats it and ``probability`` reads it in a scalar subquery over a
    one-column table (or all three read it from ``one_row``, below), and ``max_terms`` bounds
    the model: SQLite parses an expression at most
    ``SQLITE_MAX_EXPR_DEPTH`` (1000) deep, and a sum ``a + b + c ...`` is that deep. ``max_name_bytes``: PostgreSQL keeps the first 63 bytes
    of a longer name (NAMEDATALEN - 1), so a longer one could name another column: refused.
    ``mysql_names``: MariaDB and MySQL refuse a name of more than 64 characters, one ending in a
    space, or one holding a character beyond U+FFFF (an emoji): refused here, naming the
    problem, rather than by the engine.

    ``quote``: the identifier quote character (doubled inside a name): ``"`` in standard SQL,
    a backtick in MySQL/MariaDB, where ``"..."`` is a string unless ``ANSI_QUOTES`` is set.
    ``backslash_escapes`` ``"always"``: the engine reads a backslash in ``'...'`` as an escape
    (MariaDB by default), so it is doubled; ``True``: PostgreSQL's ``E'...'`` form.
    ``string_form`` wraps every string literal: MariaDB compares text by the column's collation,
    which by default ignores case and trailing spaces (``'Yes ' = 'yes'``), so its literals
    carry ``COLLATE utf8mb4_nopad_bin``, byte-exact as the runtime compares.
    ``derived_outer``: a derived table (a subquery in ``FROM``) may read the outer row. MariaDB's
    may not (and it has no ``LATERAL``): its query repeats the score where the probability
    reads it, and its reason codes pick from a constant table of term numbers
    (sql_explain.py). ``via``: (the dialect written first, the sqlglot dialect it is translated
    to) for a dialect written through sqlglot (no engine here runs it: ``verify`` says so).
    ``reason_array``: reason codes ranked in an array expression rather than a subquery.
    ``ident_backslashes``: the engine reads a backslash in a quoted name as an escape
    (ClickHouse), so it is doubled there too.
    ``too_long``: why ``max_terms`` bounds the model, for the message that refuses a longer one.
    Spark: its parser fails on a sum some 500 terms deep, and its optimizer ran for over ten
    minutes on 260 terms added in two ``LATERAL`` stages (constraint propagation canonicalising
    the sums), so ``spark`` takes one stage, at most 200 terms (under two seconds on a quiet
    machine).
    ``case_blind``: the engine matches names without regard to case (Spark SQL by default:
    ``i.`Age``` reads a column ``age``, and two columns ``a`` and ``A`` are an ambiguous
    reference): two names the query reads that differ only in case are refused (sql.py).
    ``one_row``: how a dialect without ``LATERAL`` computes a whole-number score once per
    row (:class:`OneRow`). ``text_array``: the risk table is read from one text of fixed-width
    numbers (SQLite, which has no arrays). ``floor_index``: ``{0}``'s floor as an array index
    (of a score that may hold a fraction; for DuckDB see ``DUCKDB_FLOOR_INDEX``).
    """

    name: str
    double: str
    condition_term: str
    term_keeps_null: bool
    prediction: str
    nan_test: str | None
    trim: str
    whitespace: str | None = None
    array: str | None = None
    backslash_escapes: bool | str = False
    lateral: bool = True
    max_terms: int | None = None
    too_long: str = "a sum of N terms is an expression N levels deep, and SQLite parses at most 1000"
    max_name_bytes: int | None = None
    quote: str = '"'
    string_form: str = "{}"
    derived_outer: bool = True
    via: tuple[str, str] | None = None
    mysql_names: bool = False
    reason_array: ReasonArray | None = None
    ident_backslashes: bool = False
    case_blind: bool = False
    one_row: OneRow | None = None
    text_array: bool = False
    floor_index: str = "CAST(floor({0}) AS BIGINT)"

    def ident(self, name: str) -> str:
        """A quoted identifier: any name is safe (double quotes are doubled)."""
        problem = name_problem(name)
        if problem is not None:
            raise ExportError(f"SQL identifier {name!r} {problem}")
        size = len(name.encode("utf-8"))
        if self.max_name_bytes is not None and size > self.max_name_bytes:
            raise ExportError(f"{name!r} is {size} bytes long; {self.name} keeps only the first "
                              f"{self.max_name_bytes} bytes of a name, so the query could read another "
                              f"column or table: rename it (at most {self.max_name_bytes} bytes of UTF-8)")
        if self.mysql_names:
            wide = next((c for c in name if ord(c) > 0xFFFF), None)
            if wide is not None or len(name) > 64 or name.endswith(" "):
                why = (f"holds {wide!r} (U+{ord(wide):X}), beyond U+FFFF" if wide is not None
                       else f"is {len(name)} characters long" if len(name) > 64 else "ends in a space")
                raise ExportError(f"{name!r} {why}; MariaDB and MySQL names are at most 64 characters of "
                                  "U+0001..U+FFFF, not ending in a space: rename it")
        body = name.replace("\\", "\\\\") if self.ident_backslashes else name
        return self.quote + body.replace(self.quote, self.quote * 2) + self.quote

    def string(self, text: str) -> str:
        """A string literal: single quotes doubled; in PostgreSQL a text with a backslash is
        written as ``E'...'`` with the backslash doubled, which reads the same whatever
        ``standard_conforming_strings`` is set to."""
        problem = name_problem(text)
        if problem is not None:
            raise ExportError(f"SQL string {text!r} {problem}")
        body = text.replace("'", "''")
        if self.backslash_escapes == "always":
            return self.string_form.format("'" + body.replace("\\", "\\\\") + "'")
        if self.backslash_escapes and "\\" in text:
            return "E'" + body.replace("\\", "\\\\") + "'"
        return self.string_form.format("'" + body + "'")

    def number(self, value: int | float) -> str:
        """A number literal: integers as integers (integer arithmetic stays exact), floats
        as the same IEEE double Python holds."""
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ExportError(f"not a number: {value!r}")
        if isinstance(value, int):
            return str(value)
        return self.double.format(repr(value))

    def term(self, condition: str, points: str) -> str:
        """``points`` where ``condition`` holds, else 0 (NULL when unknown if ``term_keeps_null``)."""
        return self.condition_term.format(condition=condition, points=points)

    def is_nan(self, column: str) -> str | None:
        """A condition true when ``column`` holds NaN, or None when the engine has no NaN."""
        return None if self.nan_test is None else self.nan_test.format(column)

    def is_blank(self, column: str) -> str:
        """A condition true when the text ``column`` is empty or only whitespace."""
        return self.trim.format(column, chars=self.whitespace_column) + " = ''"

    @property
    def whitespace_column(self) -> str:
        """Where a blank test reads the whitespace characters: a column of the one-row table ``w``."""
        return f"w.{self.ident('whitespace')}"

#: ``char(9, 10, ...)`` (SQLite's char takes many code points) and ``chr(9) || chr(10) ...``.
CHAR_LIST = "char(" + ", ".join(str(ord(c)) for c in WHITESPACE) + ")"
CHR_CHAIN = " || ".join(f"chr({ord(c)})" for c in WHITESPACE)
#: Spark's ``chr`` stops at 255, but its string literals read ``\uXXXX`` escapes: ``'\u0009\u000a...'``.
UNICODE_ESCAPES = "'" + "".join(f"\\u{ord(c):04x}" for c in WHITESPACE) + "'"


#: The same characters as a PCRE character class (MariaDB's REGEXP_REPLACE), each ``\\x{hex}``,
#: with the backslashes doubled for a MariaDB string literal and the braces for ``str.format``.
PCRE_WHITESPACE = "".join(f"\\\\x{{{{{ord(c):04x}}}}}" for c in WHITESPACE)


def _pcre_trim(function: str) -> str:
    """``trim`` for an engine whose TRIM takes no character set: ``{}`` without the whitespace
    at either end, by its regular-expression ``function`` (MariaDB's REGEXP_REPLACE,
    ClickHouse's replaceRegexpAll)."""
    return f"{function}({{}}, '^[{PCRE_WHITESPACE}]+|[{PCRE_WHITESPACE}]+$', '')"


#: Spark's lookup tests the index for NULL itself: Spark 4.3's generated code read a NULL column
#: index of ``element_at`` over an array literal as -1, the last element (a row without a score
#: got the top risk), where a NULL literal index gave NULL.
SPARK_ARRAY = "CASE WHEN {index} IS NOT NULL THEN element_at(array({items}), CAST({index} AS INT)) END"

CASE_TERM = "CASE WHEN {condition} THEN {points} ELSE 0 END"
CASE_PREDICTION = "CASE WHEN {score} > {threshold} THEN 1 WHEN {score} <= {threshold} THEN 0 END"

#: DuckDB's NaN test. Only a FLOAT or DOUBLE column holds NaN, and DuckDB folds ``typeof`` of a
#: column to a constant when it plans the query, so on an integer, DECIMAL or BOOLEAN column the
#: whole test is false before the first row and costs nothing per row (``isnan`` alone casts
#: every value to DOUBLE first): adult's risk query over 300,000 rows of 0/1 BIGINT columns,
#: valgrind --tool=callgrind, 87M instructions beyond planning before, 71M after, against 47M
#: for the hand-written score query (benchmarks/RESULTS.md).
DUCKDB_NAN = "(typeof({0}) IN ('DOUBLE', 'FLOAT') AND isnan({0}))"
#: DuckDB's array index of a score that may hold a fraction: its floor, but an integer score
#: (the sum over integer columns) as it is, the choice made when the query is planned (as
#: ``DUCKDB_NAN``): ``floor`` of a BIGINT is a DOUBLE, a cast there and back on every row.
DUCKDB_FLOOR_INDEX = ("(CASE WHEN typeof({0}) IN ('DOUBLE', 'FLOAT') OR typeof({0}) LIKE 'DECIMAL%'\n"
                      "      THEN CAST(floor({0}) AS BIGINT) ELSE CAST({0} AS BIGINT) END)")

DIALECTS: dict[str, Dialect] = {
    "sqlite": Dialect("sqlite", double="{}", condition_term="{points} * ({condition})", term_keeps_null=True,
                      prediction="({score} > {threshold})", nan_test=None, trim="TRIM({}, {chars})",
                      whitespace=CHAR_LIST, lateral=False, max_terms=900,
                      one_row=OneRow("json_each({score})", "{row}.\"type\" = 'integer'"),
                      text_array=True),
    "duckdb": Dialect("duckdb", double="DOUBLE '{}'", condition_term=CASE_TERM, term_keeps_null=False,
                      prediction="CAST({score} > {threshold} AS INTEGER)", nan_test=DUCKDB_NAN, trim="TRIM({}, {chars})",
                      whitespace=CHR_CHAIN, array="[{items}][{index}]", floor_index=DUCKDB_FLOOR_INDEX),
    "postgres": Dialect("postgres", double="DOUBLE PRECISION '{}'", condition_term=CASE_TERM,
                        term_keeps_null=False, prediction=CASE_PREDICTION,
                        nan_test="{} = CAST('NaN' AS DOUBLE PRECISION)", trim="BTRIM({}, {chars})",
                        whitespace=CHR_CHAIN, array="(ARRAY[{items}])[{index}]", backslash_escapes=True, max_name_bytes=63),
    "ansi": Dialect("ansi", double="CAST('{}' AS DOUBLE PRECISION)", condition_term=CASE_TERM,
                    term_keeps_null=False, prediction=CASE_PREDICTION, nan_test=None, trim="TRIM({})",
                    lateral=False, max_terms=900),
    "mysql": Dialect("mysql", double="CAST('{}' AS DOUBLE)", condition_term=CASE_TERM, term_keeps_null=False,
                     prediction=CASE_PREDICTION, nan_test=None,
                     trim=_pcre_trim("REGEXP_REPLACE"),
                     backslash_escapes="always", lateral=False, max_terms=900, quote="`",
                     string_form="_utf8mb4{} COLLATE utf8mb4_nopad_bin", derived_outer=False,
                     mysql_names=True),
    "clickhouse": Dialect("clickhouse", double="CAST('{}' AS Float64)", condition_term=CASE_TERM, term_keeps_null=False,
                          prediction=CASE_PREDICTION, nan_test="isNaN({})",
                          trim=_pcre_trim("replaceRegexpAll"),
                          backslash_escapes="always", lateral=False, max_terms=900, derived_outer=False,
                          reason_array=ReasonArray(item="tuple(-({c}), {i}, {r}, {c})",
                                                   ranked="arraySort(arrayFilter(x -> tupleElement(x, 4) > 0, [{items}]))",
                                                   size="length({a})", pick="tupleElement(({a})[{k}], {field})",
                                                   fields=("3", "4"), points="CAST({c} AS Nullable({type}))",
                                                   types=("Int64", "Float64"), named="({a} AS {name})"),
                          ident_backslashes=True),
    "spark": Dialect("spark", double="{}D", condition_term=CASE_TERM, term_keeps_null=False,
                     prediction="({score} > {threshold})", nan_test="isnan({})", trim="btrim({}, {chars})",
                     whitespace=UNICODE_ESCAPES, array=SPARK_ARRAY,
                     backslash_escapes="always", quote="`", case_blind=True, max_terms=200,
                     too_long="Spark's parser fails on a longer sum and its optimizer stalls on one in stages",
                     reason_array=ReasonArray(item="named_struct('n', -{c}, 'i', {i}, 'r', {r}, 'c', {c})",
                                              ranked="array_sort(filter(array({items}), term -> term.c > 0))",
                                              size="size({a})", pick="element_at({a}, {k}).{field}",
                                              fields=("r", "c"), points="CAST({c} AS {type})",
                                              types=("BIGINT", "DOUBLE"))),
    **{name: Dialect(name, double="CAST('{}' AS DOUBLE PRECISION)", condition_term=CASE_TERM, term_keeps_null=False,
                     prediction=CASE_PREDICTION, nan_test=None, trim="TRIM({})", lateral=False, max_terms=900,
                     via=("ansi", target))
       for name, target in [("tsql", "tsql"), ("oracle", "oracle"), ("snowflake", "snowflake"), ("bigquery", "bigquery")]},
}


def dialect(name: str) -> Dialect:
    """The dialect called ``name``, or an error listing the known ones."""
    try:
        return DIALECTS[name]
    except KeyError:
        raise ExportError(f"unknown SQL dialect {name!r} (known: {', '.join(sorted(DIALECTS))})") from None
