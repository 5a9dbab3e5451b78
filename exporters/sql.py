"""The ``sql`` export: one query that scores every row of a table, for a chosen dialect.

The query reads table ``input`` (``table=``, a dotted path ``db.schema.table`` whose parts
are quoted for the dialect, sql_names.py) and returns all of its columns (``keep=``: those
named) plus ``score`` and ``prediction``. It ends without ``;`` and its last line holds no
comment, so it pastes as is into a CTE, a subquery or a view (``statement=True`` adds the
``;``, ``view=`` writes ``CREATE VIEW``). It follows runtime/score.py exactly:

- ``score = 0 + term_1 + term_2 + ...`` (the card's points total, no intercept) written left
  to right in the model's order, so a float score is the same IEEE double Python computes;
  integer points are integer literals, so a model over integer columns gives integer scores;
- a row with a missing value (NULL; NaN where the engine has NaN; an empty or blank text in
  a categorical column) in an input the model uses gets ``score`` NULL and ``prediction``
  NULL, never a silent 0; under ``{"impute": ...}`` the stated value is used instead; under
  ``"unmet"`` each condition on a missing value adds 0 (a ``CASE``, guarded against NaN and
  blank text where those could meet it) and a ``missing`` term its points
  (``CASE WHEN x IS NULL OR <NaN or blank> THEN points ELSE 0 END``); only an input of a
  ``linear`` term still makes the score NULL;
- ``prediction`` is 1 when the score is > the model's threshold (``-intercept``), else 0;
- when the model has a score-to-risk map (``model.probability``, runtime/risk.py), a third
  column ``probability``, NULL when the score is NULL: for ``{"method": "logistic", "scale": s,
  "center": c}`` the runtime's two-branch formula with ``z = s * (score - c)`` (``1 / (1 + EXP(-z))`` when
  ``z >= 0``, else ``EXP(z) / (1 + EXP(z))``: EXP never overflows), where a ``z`` so negative
  that ``EXP(z)`` is 0 gives 0 directly (PostgreSQL raises "underflow" rather than return 0);
  the engine's EXP is the C library's, so the value is the runtime's up to the last bits of
  ``exp``. For ``{"method": "table", ...}`` the risk of the largest table score at or below
  the score, the first row's below it, exactly the runtime's double: where the dialect has
  arrays and the table's scores are whole numbers, one array of the risk at every whole
  score indexed by the score (``_array``; with the CASE tree it replaced DuckDB took
  1.9-2.7x the hand-written score query, with the array 1.1-1.7x: benchmarks/RESULTS.md); in
  SQLite, which has no arrays, for a whole-number score, one text of the risks padded to one
  width, cut at the score's place and read as a number (``_text_array``); else a ``CASE`` (a balanced
  tree of comparisons, so a long table costs a few tests per row). SQLite's ``EXP``
  exists only when SQLite is built with its math functions (the default since 3.35, and in
  the ``sqlite3`` module of the python.org and Debian builds); without them a logistic
  model's query fails with "no such function: EXP" (the table shape needs no function).

With ``explain`` K (``export --explain K``) the query also returns ``reason_1..reason_K`` and
``points_1..points_K``, runtime/explain.py's reason codes (sql_explain.py).

The table's columns pass through as ``i.*``; the added columns never read a column of the
table by an unqualified or shared name, so none can shadow them (a table column ``score`` comes
out unchanged, before the query's own): where the dialect has ``LATERAL`` the score is computed
once per row in ``CROSS JOIN LATERAL (SELECT ... AS "score") AS s``, a subquery holding only
that column. SQLite has no ``LATERAL``, but a table-valued function may read the row: when the
model has a probability and its score is a whole number, the score is computed once per row as
the one row of ``LEFT JOIN json_each(<score>) AS s ON TRUE`` (json_each of a JSON number is one
row, its ``value``; of NULL, no row, so the LEFT JOIN gives NULL), and ``score``,
``prediction`` and ``probability`` read ``s."value"`` (on adult's 15-term card with its
63-row risk table: 1.1x the instructions of the hand-written score query, against 1.5x when
the sum was computed three times; benchmarks/RESULTS.md). json_each gives an integer back
exactly but writes a double with 15 digits, so a row whose score is a double (from a REAL
column, or a binary column holding a fraction, 0.95, which the runtime reads as it is) has its
score computed again unless every term adds whole points (``_once_join``). A model whose
scores can pass 10^15 or hold fractions otherwise: SQLite
writes the score expression as the ``score`` column,
again in ``prediction`` and reads it for ``probability`` (which tests it many times) in a
scalar subquery over a one-column table: SQLite's flattener evaluated the expression for each
of them when they read a column of a subquery too. So does ANSI, whose query runs unchanged
in SQLite, DuckDB and PostgreSQL (a scalar subquery for the prediction too would make DuckDB
join, returning the rows in another order). A sum longer than ``STAGE`` terms is split into ``LATERAL`` stages,
each fenced with ``OFFSET 0 ROWS`` (else PostgreSQL pulls them up into one expression as deep
as the sum, and crashes on 10,000 terms), each starting from the one before: the same additions
in the same order. SQLite parses an expression at most 1000 deep and cannot stage the sum:
``sqlite`` and ``ansi`` refuse a model of more than ``max_terms`` terms (sql_dialects.py). Conditions that make a row
unscorable are joined by OR as a balanced tree.

A blank text is ``TRIM(x, w."whitespace") = ''``: ``w`` is a one-row table joined once
(only when some blank test is written) whose one column holds the characters Python's
``str.strip()`` removes, built from their code points (sql_dialects.py), so the query shows
no hex and no invisible character. Every identifier is quoted and qualified with the table alias (so SQLite cannot mistake a
missing column for a string), and every category is a quoted literal, so any column or
category name is safe. Identifiers and literals keep the exact name (the engine matches it);
what a person reads, the comments, shows control and invisible format characters escaped
(``\\u202e``), and the header lists the names that hold any, escaped. Numeric inputs must be
numeric columns (INTEGER, BIGINT, DOUBLE...); a number stored as text compares as text, so
cast such columns first.
"""
from __future__ import annotations

from scorecard.runtime import Input, Model, Term
from scorecard.runtime.names import has_hidden
from scorecard.runtime.score import coerce
from scorecard.runtime.table import added_columns

from .layout import meta_lines, number_text
from .registry import ExportError, Exporter, register
from .sql_dialects import CASE_TERM, Dialect, OneRow, dialect as find_dialect
from .sql_explain import reason_sql
from .sql_transpile import transpile
from .sql_names import clashing_input, split_names

ROW = "i"
SCORED = "s"


def _label(text: str) -> str:
    """User text made safe for a ``--`` comment: line breaks and every other unprintable
    character escaped as Python writes them (``\\n``, ``\\u202e``), so the comment cannot
    end early; quotes and the rest stay as they are."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def _last(text: str) -> str:
    """``_label`` for text that ends a comment line: Spark SQL continues a ``--`` comment
    whose line ends in a backslash onto the next line (which held the next term), so such a
    text is followed by words saying so."""
    text = _label(text)
    return text + " (ends with a backslash)" if text.endswith("\\") else text


def _value(d: Dialect, inp: Input, value: object) -> str:
    """A term's or an imputed value as a literal of the input's type."""
    if inp.type == "categorical":
        return d.string(str(value))
    return d.number(coerce(inp, value))  # type: ignore[arg-type]


def _missing(d: Dialect, inp: Input, column: str) -> str:
    """A condition true when ``column`` holds no value for ``inp``."""
    unusable = _unusable(d, inp, column)
    return f"{column} IS NULL" if unusable is None else f"{column} IS NULL OR {unusable}"


def _unusable(d: Dialect, inp: Input, column: str) -> str | None:
    """A condition true for the non-NULL values that also mean "missing": a blank category,
    a NaN (where the engine has NaN). None when only NULL means missing."""
    if inp.type == "categorical":
        return d.is_blank(column)
    return d.is_nan(column)


def _reference(d: Dialect, model: Model, inp: Input) -> str:
    """How the query reads an input: the column, or the imputed value when it is missing."""
    column = f"{ROW}.{d.ident(inp.name)}"
    imputed = model.imputed
    if inp.name not in imputed:
        return column
    return f"(CASE WHEN {_missing(d, inp, column)} THEN {_value(d, inp, imputed[inp.name])} ELSE {column} END)"


def _term(d: Dialect, inp: Input, term: Term, x: str, unknown: bool = False) -> str:
    """The points one term adds, as SQL.

    ``unknown``: ``x`` may hold a missing value that must meet no condition but ``missing``
    (the "unmet" policy). A ``CASE`` gives 0 for a condition on NULL (SQLite's
    ``points * (condition)`` would give NULL); the non-NULL missing values that could still
    meet a condition are excluded first: NaN, which DuckDB and PostgreSQL sort above every
    number (``NaN >= 5`` holds there), and a blank text, which equals a blank category.
    """
    points = d.number(term.points)
    if term.op == "linear":
        return f"{points} * {x}"
    if term.op == "missing":  # never NULL itself: IS NULL is true or false
        return CASE_TERM.format(condition=_missing(d, inp, x), points=points)
    if term.op == "in":
        condition = f"{x} IN ({', '.join(d.string(v) for v in term.value)})"  # type: ignore[union-attr]
    else:
        op = "=" if term.op == "==" else term.op
        condition = f"{x} {op} {_value(d, inp, term.value)}"
    if not unknown:
        return d.term(condition, points)
    unusable = _unusable(d, inp, x)
    if unusable is not None and _could_meet(inp, term):
        condition = f"NOT ({unusable}) AND {condition}"
    return CASE_TERM.format(condition=condition, points=points)


def _could_meet(inp: Input, term: Term) -> bool:
    """Whether a non-NULL missing value (NaN, a blank text) could meet the condition: NaN a
    ``>=`` (NaN sorts above every number in DuckDB and PostgreSQL), a blank text a category
    that is itself blank."""
    if inp.type != "categorical":
        return term.op == ">="
    values = term.value if term.op == "in" else (term.value,)
    return any(str(v).strip() == "" for v in values)  # type: ignore[union-attr]


def _missing_tests(model: Model, d: Dialect) -> list[str]:
    """Conditions that make a row unscorable and that NULL arithmetic does not already cover:
    blank text and NaN, and NULL in an input read through a condition when the dialect's
    condition terms turn NULL into 0."""
    tests = []
    for inp in model.needs_value:
        column = f"{ROW}.{d.ident(inp.name)}"
        # under "unmet" a needed input has a linear term, whose NULL makes the sum NULL
        conditional = not model.unmet and any(t.op != "linear" for t in model.terms if t.input == inp.name)
        if conditional and not d.term_keeps_null:
            tests.append(_missing(d, inp, column))
        elif _unusable(d, inp, column) is not None:
            tests.append(_unusable(d, inp, column))
    return tests


def unscorable(model: Model, d: Dialect) -> str | None:
    """A condition true exactly when the row has no score: an input it cannot be scored
    without (``model.needs_value``) is missing; None when every row has a score."""
    tests = [_missing(d, inp, f"{ROW}.{d.ident(inp.name)}") for inp in model.needs_value]
    return _any(tests) if tests else None


#: Terms a stage of the sum adds at most (dialects with ``lateral``): far below the 1000
#: levels SQLite and DuckDB parse, whatever the terms themselves nest.
STAGE = 200


def _any(tests: list[str]) -> str:
    """``tests`` joined by OR as a balanced tree: ``a OR b OR c ...`` would be as deep as it is long."""
    if len(tests) == 1:
        return tests[0]
    mid = len(tests) // 2
    return f"({_any(tests[:mid])})\n           OR ({_any(tests[mid:])})"


def term_points(model: Model, d: Dialect) -> list[str]:
    """Each term's points for one row of alias ``i`` as SQL, in term order: the expressions
    the score adds (the reason codes rank them, sql_explain.py)."""
    refs = {inp.name: _reference(d, model, inp) for inp in model.used_inputs}
    return [_term(d, model.input(t.input), t, refs[t.input], model.unmet) for t in model.terms]


def score_stages(model: Model, d: Dialect) -> list[str]:
    """The score of one row of alias ``i`` as SQL, NULL when unscorable: one expression, or
    (a dialect with ``lateral``, a model of more than STAGE terms) stages whose sums are added
    in the model's order: stage k (k >= 1) starts from ``sk."v"``, the value of stage k - 1,
    so every stage stays STAGE terms deep and the doubles are those of one long sum. The
    last stage is the score."""
    lines = [f"+ {points}  -- {_last(t.label)}" for t, points in zip(model.terms, term_points(model, d))]
    if d.max_terms is not None and len(lines) > d.max_terms:
        raise ExportError(f"the model has {len(lines)} terms; a {d.name} query adds at most {d.max_terms} "
                          f"({d.too_long}): use the duckdb or postgres dialect, or the python export")
    size = STAGE if d.lateral else max(len(lines), 1)
    chunks = [lines[k:k + size] for k in range(0, len(lines), size)] or [[]]
    sums = [[d.number(0)] + chunks[0]]
    sums += [[f'{SCORED}{k}.{d.ident("v")}'] + chunk for k, chunk in enumerate(chunks[1:], start=1)]
    stages = ["(\n        " + "\n        ".join(total) + "\n    )" for total in sums[:-1]]
    total = "\n        ".join(sums[-1])
    tests = _missing_tests(model, d)
    if not tests:
        note = ("no input makes the score NULL: a missing value adds 0 or its 'unknown' points"
                if model.unmet and not model.needs_value else "a NULL input makes the sum NULL")
        return stages + [f"(  -- {note}\n        {total}\n    )"]
    return stages + [f"CASE WHEN {_any(tests)}\n    THEN NULL  -- a missing input: no score\n"
                     f"    ELSE  -- a NULL input makes the sum NULL\n        {total}\n    END"]


#: The smallest double whose C ``exp`` is not 0 (exp of anything below rounds to 0.0):
#: ``-1075 * ln 2`` rounded up. Below it the query writes the 0 the runtime computes.
EXP_ZERO_BELOW = -745.1332191019411
#: Above this, ``1 / (1 + exp(-z))`` is exactly 1.0 (``exp(-z)`` is below half an ulp of 1).
ONE_ABOVE = 40
#: A table of at most this many rows is one flat ``CASE``; a longer one is split in halves.
CASE_LEAF = 8
#: The longest array of risks a table lookup writes (one per whole score); a wider table is a CASE tree.
MAX_ARRAY = 4096


def _logistic(d: Dialect, scale: int | float, center: int | float, total: str) -> str:
    """runtime/risk.py's logistic risk of the score ``total`` (NULL for NULL)."""
    z = f"{d.number(float(scale))} * ({total} - {d.number(center)})"
    one = d.number(1.0)
    return (f"CASE WHEN {total} IS NULL THEN NULL\n"
            f"      WHEN {z} > {ONE_ABOVE} THEN {one}\n"
            f"      WHEN {z} >= 0 THEN {one} / ({one} + EXP(-({z})))\n"
            f"      WHEN {z} < {d.number(EXP_ZERO_BELOW)} THEN {d.number(0.0)}\n"
            f"      ELSE EXP({z}) / ({one} + EXP({z})) END")


def _table(d: Dialect, table: list[dict], total: str, whole: bool) -> str:
    """runtime/risk.py's table risk of the score ``total`` (NULL for NULL): an array lookup
    where the dialect has arrays and the table's scores are whole numbers, else a CASE tree.
    ``whole``: the score is a whole number whatever the row holds (no ``floor`` needed before
    indexing; it may still be a double, from a column stored as DOUBLE)."""
    if all(float(row["score"]).is_integer() for row in table):
        lo, hi = int(table[0]["score"]), int(table[-1]["score"])
        if hi - lo < MAX_ARRAY and d.array is not None:
            return _array(d, table, total, whole)
        if hi - lo < MAX_ARRAY and d.text_array:
            return _text_array(d, table, total)
    scores = [d.number(row["score"]) for row in table]
    risks = [d.number(float(row["risk"])) for row in table]

    def part(lo: int, hi: int) -> str:  # rows lo..hi-1, knowing score >= scores[lo] (or lo == 0)
        if hi - lo == 1:
            return risks[lo]
        if hi - lo <= CASE_LEAF:
            tests = " ".join(f"WHEN {total} >= {scores[k]} THEN {risks[k]}" for k in range(hi - 1, lo, -1))
            return f"CASE {tests} ELSE {risks[lo]} END"
        mid = (lo + hi) // 2
        return f"CASE WHEN {total} >= {scores[mid]}\n      THEN {part(mid, hi)}\n      ELSE {part(lo, mid)} END"

    return f"CASE WHEN {total} IS NULL THEN NULL\n      ELSE {part(0, len(table))} END"


def _whole_risks(d: Dialect, table: list[dict]) -> list[str]:
    """The risk at every whole score from the table's first score to its last, as literals:
    the largest table score at or below a score ``x`` is the one at or below ``floor(x)``, as
    the table's scores are whole numbers."""
    lo, hi = int(table[0]["score"]), int(table[-1]["score"])
    risks, k = [], 0
    for whole in range(lo, hi + 1):
        while k + 1 < len(table) and table[k + 1]["score"] <= whole:
            k += 1
        risks.append(d.number(float(table[k]["risk"])))
    return risks


def _array(d: Dialect, table: list[dict], total: str, whole: bool) -> str:
    """The table risk as one array of the risk at every whole score from the table's first
    to its last (``_whole_risks``), indexed by the score. Below the first score the first
    risk, from the last one the last risk; a NULL score indexes NULL."""
    lo, hi = int(table[0]["score"]), int(table[-1]["score"])
    risks = _whole_risks(d, table)
    at = f"CAST({total} AS BIGINT)" if whole else d.floor_index.format(total)  # a double indexes no array
    items = ", ".join(risks)
    return (f"CASE WHEN {total} <= {lo} THEN {risks[0]} WHEN {total} >= {hi} THEN {risks[-1]}\n"
            f"      ELSE {d.array.format(items=items, index=f'{at} - {lo - 1}')} END")


def _text_array(d: Dialect, table: list[dict], total: str) -> str:
    """The table risk of a score where the dialect has no arrays (SQLite): the
    risk at every whole score from the table's first to its last (``_whole_risks``) as one
    text of numbers each padded with spaces to one width, cut at the score's place and read
    as a number (the engine parses the same characters as it would the literal: the same
    double). The text is read as a BLOB so ``substr`` counts bytes instead of walking the
    characters from the start; ``min``/``max`` hold the score within the table (the first
    risk below it, the last above) and give NULL for a NULL score, with one reading of it; the
    CAST to INTEGER of the (non-negative) place is its floor, for a fractional score."""
    lo, hi = int(table[0]["score"]), int(table[-1]["score"])
    risks = _whole_risks(d, table)
    width = max(len(risk) for risk in risks) + 1
    packed = "".join(risk.ljust(width) for risk in risks)
    offset = f"- {lo}" if lo >= 0 else f"+ {-lo}"
    return (f"CAST(substr(CAST('{packed}' AS BLOB),\n"
            f"      CAST(min({hi}, max({lo}, {total})) {offset} AS INTEGER) * {width} + 1, {width}) AS REAL)")


def _integral(model: Model) -> bool:
    """Whether every score of a row of whole numbers is a whole number: whole points, linear
    terms only on binary inputs (whose columns hold 0 and 1, but may hold any number: the
    runtime reads 0.95 as 0.95, see ``Model.whole_scores``)."""
    return all(isinstance(t.points, int) for t in model.terms) and all(
        model.input(t.input).type == "binary" for t in model.terms if t.op == "linear")


#: The largest whole score a dialect's ``one_row`` carries exactly: SQLite writes a number as
#: text with 15 significant digits before json_each reads it back.
ONE_ROW_BELOW = 10 ** 15


def _read_once(model: Model, d: Dialect) -> OneRow | None:
    """The dialect's ``one_row`` table function when the query reads the score through it
    (SQLite, which has no LATERAL), else None: when the model has a probability, which
    otherwise computes the sum once more, and the score of whole inputs is a whole number below
    ``ONE_ROW_BELOW``, so it comes back from the function's text exactly (a fraction in a binary
    column is computed again: :func:`_once_join`)."""
    once = (not d.lateral and model.probability is not None and _integral(model)
            and sum(abs(t.points) for t in model.terms) < ONE_ROW_BELOW)
    return d.one_row if once else None


def _once_join(model: Model, d: Dialect, one_row: OneRow, score: str) -> tuple[str, str]:
    """The join that computes the score once per row as the one row of ``one_row``
    (:func:`_read_once`), and the score read from it. The function's value is the score exactly
    when it is an integer, always the case when every term adds whole points; a linear term
    on a binary column holding a fraction (0.95, which the runtime reads as such), or on a REAL
    column, makes a double that the function's text rounds: the join keeps the row only when
    its value is exact (``OneRow.exact``, tested once per row), and the score expression is
    computed again where it did not (also for a row with no score, whose sum is NULL again)."""
    value = f'{SCORED}.{d.ident("value")}'
    row = one_row.function.format(score=score)
    if model.whole_scores:
        return f"LEFT JOIN {row} AS {SCORED} ON TRUE", value
    return (f"LEFT JOIN {row} AS {SCORED} ON {one_row.exact.format(row=SCORED)}",
            f"coalesce({value}, {score})")


def probability_expression(model: Model, d: Dialect, total: str) -> str | None:
    """The risk of the score ``total`` (a SQL expression) as SQL, or None without ``probability``."""
    probability = model.probability
    if probability is None:
        return None
    if probability["method"] == "logistic":
        return _logistic(d, probability["scale"], probability.get("center", 0), total)
    return _table(d, probability["table"], total, model.whole_scores)


def _policy(model: Model, d: Dialect) -> str:
    """The missing-value rule in the query's own words, naming only inputs the model uses."""
    if model.unmet:
        text = "a missing value meets no condition on its input (0 points) except its 'unknown' one"
        needed = [d.ident(inp.name) for inp in model.needs_value]
        if needed:
            text += "; a row missing an input of a linear term gets score NULL: " + ", ".join(needed)
        return text
    text = "a row missing a used input gets score NULL and prediction NULL"
    imputed = [f"{d.ident(inp.name)} = {_value(d, inp, model.imputed[inp.name])}"
               for inp in model.used_inputs if inp.name in model.imputed]
    if imputed:
        text += "; a missing value of these inputs is replaced by the one given: " + ", ".join(imputed)
    return text


def _hidden_names(model: Model, table: list[str]) -> list[str]:
    """The identifiers and string literals of the query that hold invisible or control
    characters (runtime/names.py), in the order they appear: they are written exactly (that
    is what the engine matches; SQLite and DuckDB have no escaped form of an identifier), so
    the header repeats them escaped for the person reading the file."""
    texts = table + [inp.name for inp in model.used_inputs]
    for term in model.terms:
        texts += [v for v in (term.value if isinstance(term.value, tuple) else (term.value,)) if isinstance(v, str)]
    texts += [v for k, v in model.imputed.items() if isinstance(v, str) and k in {i.name for i in model.used_inputs}]
    return [text for text in dict.fromkeys(texts) if has_hidden(text)]


def _columns(names: tuple[str, ...]) -> str:
    return " and ".join(names) if len(names) < 3 else ", ".join(names[:-1]) + " and " + names[-1]


def _risk_note(probability: dict) -> str:
    if probability["method"] == "logistic":
        scale, center = probability["scale"], probability.get("center", 0)
        z = f"score - {center!r}" if center else "score"
        z = z if scale == 1 else f"{scale!r} * ({z})"
        return (f"1 / (1 + EXP(-z)) with z = {z}, the positive-class risk; needs EXP "
                "(SQLite: built with its math functions, the default since 3.35)")
    return (f"the risk of the largest of the {len(probability['table'])} table scores at or below the score "
            "(the first row's below it)")


def _path(d: Dialect, text: str, what: str) -> tuple[list[str], str]:
    """A dotted name (``db.schema.table``, a part with a dot between double quotes) as its
    parts and as SQL, each part quoted for the dialect."""
    parts = split_names(text, ".", what)
    return parts, ".".join(d.ident(part) for part in parts)


def _one_name_each(d: Dialect, names: list[str]) -> None:
    """Refuse two inputs the engine would read as one (``Dialect.case_blind``: ``Age`` and
    ``age``), naming both: the query would read an ambiguous or the wrong column."""
    seen: dict[str, str] = {}
    for name in names:
        other = seen.setdefault(name.lower(), name)
        if other != name:
            raise ExportError(f"{other!r} and {name!r} differ only in case, and {d.name} reads names without "
                              "regard to case, so the query could not tell the columns apart: rename one")


def render(model: Model, dialect: str = "ansi", table: str = "input", view: str | None = None,
           explain: int | None = None, keep: str | None = None, statement: bool = False) -> str:
    """The scoring query as SQL text, ready to paste into a CTE, a subquery or a view.

    ``table`` and ``view`` are dotted paths (``ehr.vitals``; ``"my.db".vitals`` for a part
    holding a dot, sql_names.py); ``view`` writes ``CREATE VIEW view AS`` the query.
    ``keep`` (``"id,age"``) names the table's columns carried through, instead of all of them
    (``i.*``): only the syntax is checked, the engine says whether the table has them.
    ``statement`` ends the text with ``;`` (without it the query wraps as it is).
    ``explain`` K adds the reason codes ``reason_1..reason_K``, ``points_1..points_K``
    (sql_explain.py)."""
    d = find_dialect(dialect)
    if d.via is not None:  # written in another dialect first, then by sqlglot (sql_transpile.py)
        return transpile(render(model, d.via[0], table, view, explain, keep, statement), d.name, d.via, statement)
    table_parts, source = _path(d, table, "--table")
    target = None if view is None else _path(d, view, "--as view")[1]
    kept = None if keep is None else split_names(keep, ",", "--keep")
    carried = [f"{ROW}.*"] if kept is None else [f"{ROW}.{d.ident(name)}" for name in kept]
    added = added_columns(model)
    for column in added:
        clash = clashing_input(model, column)
        if clash is not None:
            raise ExportError(f"input {clash!r} clashes with the column {column!r} the query adds "
                              "(SQLite, DuckDB and MariaDB read names without regard to case); rename it")
    if d.case_blind:
        _one_name_each(d, [inp.name for inp in model.used_inputs])
    once = _read_once(model, d)
    stages = score_stages(model, d)
    join, total = _once_join(model, d, once, stages[-1]) if once else ("", f'{SCORED}.{d.ident("score")}')
    threshold = d.number(model.threshold)
    outputs = [("prediction", d.prediction.format(score=total, threshold=threshold), "NULL when the score is NULL"),
               ("probability", probability_expression(model, d, total),
                "the risk at this score; NULL when the score is NULL")]
    outputs = [output for output in outputs if output[1] is not None]
    joins = []
    columns = [(sql, "") for sql in carried]
    if d.lateral:  # the score once per row, in subqueries of the query's own columns only
        columns += [(f'{total} AS {d.ident("score")}', "")]
        columns += [(f'{sql} AS {d.ident(name)}', note) for name, sql, note in outputs]
        joins = [f'CROSS JOIN LATERAL (SELECT {stage} AS {d.ident("v")} OFFSET 0 ROWS) AS {SCORED}{k}'
                 for k, stage in enumerate(stages[:-1], start=1)]  # OFFSET 0: each stage stays a subquery
        joins.append(f'CROSS JOIN LATERAL (SELECT {stages[-1]} AS {d.ident("score")}) AS {SCORED}')
    elif once:  # the score once per row, in the one row the dialect's table function makes of it
        columns += [(f'{total} AS {d.ident("score")}', "")]
        columns += [(f'{sql} AS {d.ident(name)}', note) for name, sql, note in outputs]
        joins = [join]
    else:  # the prediction repeats the score; the probability reads it from a table of one column
        one = f'FROM (SELECT {stages[-1]} AS {d.ident("score")}) AS {SCORED}'
        columns += [(f'{stages[-1]} AS {d.ident("score")}', "")]
        columns += [(f'{d.prediction.format(score=stages[-1], threshold=threshold)} AS {d.ident("prediction")}',
                     outputs[0][2])]
        if d.derived_outer:
            columns += [(f'(SELECT {sql} {one}) AS {d.ident(name)}', note) for name, sql, note in outputs[1:]]
        else:  # a derived table cannot read the row (MariaDB): the probability repeats the score
            risk = probability_expression(model, d, stages[-1])
            columns += [(f'{risk} AS {d.ident(name)}', note) for name, _, note in outputs[1:]]
    if explain is not None:
        reasons, reason_joins = reason_sql(model, d, explain, term_points(model, d), total if d.lateral else None,
                                           unscorable(model, d))
        columns += [(sql, "") for sql, _ in reasons]
        joins += reason_joins
        added += tuple(name for _, name in reasons)
    reads_whitespace = any(d.whitespace_column in text for text in [sql for sql, _ in columns] + joins)
    if reads_whitespace:  # the characters, once per query, for every blank test
        joins.insert(0, f'CROSS JOIN (SELECT {d.whitespace} AS {d.ident("whitespace")}) AS w')
    items = [sql + ("," if k < len(columns) - 1 else "") + (f"  -- {note}" if note else "")
             for k, (sql, note) in enumerate(columns)]
    query = "SELECT " + "\n    ".join(items) + f"\nFROM {source} AS {ROW}" + "".join(f"\n{join}" for join in joins)
    if target is not None:
        query = f"CREATE VIEW {target} AS\n{query}"
    carried_note = "its columns" if kept is None else "its columns " + _label(", ".join(map(d.ident, kept)))
    header = [
        f"-- scorecard {model.kind} model for {_label(model.target.name)} (positive: {_label(str(model.target.positive))})",
        f"-- dialect: {d.name}; reads table {_label(source)}; returns {carried_note} plus {_columns(added)}",
        "-- score = the points total of the card: the points of the terms below, added in this order",
        f"-- prediction = 1 when score > {number_text(model.threshold)} (the card's threshold)",
        f"-- missing values: {_label(_policy(model, d))}",
        "-- numeric inputs must be numeric columns (cast numbers stored as text first)",
    ]
    if any(inp.type == "categorical" for inp in model.used_inputs):
        header.append("-- a text that is empty or whitespace only is missing, as NULL is" +
                      (f" (whitespace: the characters of {d.whitespace_column}, those Python's str.strip() removes)"
                       if reads_whitespace else ""))
    if model.probability is not None:
        header.append(f"-- probability: {_risk_note(model.probability)}")
    if explain is not None:
        header.append(f"-- reason_1..reason_{explain}, points_1..points_{explain}: the terms that added points > 0 "
                      "to the row (their card wording, their points), the most first, equal points in term order; "
                      "NULL where fewer terms added points or the row has no score")
    header += [f"-- {_last(line)}" for line in meta_lines(model)]
    hidden = _hidden_names(model, table_parts + (kept or []))
    if hidden:
        header.append("-- these names hold invisible or control characters, written exactly in the query (an editor "
                      "may show those lines reordered or blank): " + ", ".join(map(repr, hidden)))
    return "\n".join(header) + "\n" + query + (";\n" if statement else "\n")


register(Exporter(name="sql", suffix=".sql", render=render,
                  description="one SQL query over table 'input' adding score and prediction "
                              "(and probability when the model has one)"))
