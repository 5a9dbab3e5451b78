"""The ``html`` export: one self-contained page that prints as the paper's scorecard.

On paper it is the card of the paper's figures (numbered conditions, points, a blank to
add them up, the threshold, the risk table) on one Letter or A4 sheet. On screen the same
page is a calculator: tick rows or type values and read the score and the prediction.
Everything is inline (style, script, data); nothing refers to the network.

For checks (tests, ``scorecard verify``), opening ``card.html#rows=<URI-encoded JSON list of
{input: value} rows>`` makes the page score each row with its own script and write
``[[score, prediction], ...]`` (``null`` when a row has no score) into ``<pre id="batch">``;
``#row=<one row>`` fills the calculator with one row. See templates/scorecard.js. Under the
``"unmet"`` policy a missing value ticks only the "unknown" rows of its input (an empty
number field, which only linear inputs have, still means no score).

Safety: Jinja2 autoescaping is on for all user text (column names, categories, labels),
and every printed value goes through runtime/names.py's ``visible`` first (a bidirectional
control prints as ``[U+202E]``; the JSON block keeps the exact names the calculator matches);
the script reads the model from a JSON block in which ``<``, ``>`` and ``&`` are written as
``\\u003c``-style escapes, so no name can close the block or open a new element.
"""
from __future__ import annotations

import json
from functools import lru_cache

import jinja2
from markupsafe import Markup

from scorecard.runtime import Model
from scorecard.runtime.names import visible

from .layout import Card, Row, card, number_text
from .registry import Exporter, register

#: How conditions read on the page.
SYMBOLS = {">=": "\u2265"}


@lru_cache(maxsize=1)
def _env() -> jinja2.Environment:
    return jinja2.Environment(loader=jinja2.PackageLoader("scorecard.templates", "."),
                              autoescape=True, trim_blocks=True, lstrip_blocks=True, finalize=_shown,
                              undefined=jinja2.StrictUndefined)


def page_template(name: str) -> jinja2.Template:
    """A page template of templates/ in this export's environment (autoescaping, every printed
    name through ``visible``): the report and drift pages (exporters/report.py) use it."""
    return _env().get_template(name)


def _shown(value: object) -> object:
    """Every value the template prints, as a person reads it (runtime/names.py: hidden
    characters as ``[U+XXXX]``), in text and attributes alike; markup the exporter built (the
    model's JSON block, whose values the calculator matches exactly) is left as it is."""
    return value if isinstance(value, Markup) or not isinstance(value, str) else visible(value)


def script_json(data: object) -> Markup:
    """``data`` as JSON that is safe inside a ``<script>`` element (no ``</``, ``<!--``)."""
    text = json.dumps(data, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    for char in "<>&\u2028\u2029":
        text = text.replace(char, f"\\u{ord(char):04x}")
    return Markup(text)


def _row_data(model: Model, row: Row) -> dict:
    """What the calculator needs to evaluate one row on a data row (see scorecard.js)."""
    imputed = model.imputed
    needed = {inp.name for inp in model.needs_value}
    return {
        "input": row.input, "shown": visible(row.input), "type": model.input(row.input).type,
        "multiply": row.multiply,
        "points": row.points, "impute": [imputed[row.input]] if row.input in imputed else [],
        # "unmet": a missing value of this input meets only the row's "unknown" conditions
        "unknown": model.unmet and row.input not in needed,
        "tests": [{"op": t.op, "value": list(t.value) if isinstance(t.value, tuple) else t.value}
                  for t in row.terms],
    }


def density(c: Card) -> str:
    """The CSS class that keeps a tall card on one page."""
    n = len(c.rows)
    return "normal" if n <= 16 else "compact" if n <= 30 else "dense" if n <= 45 else "tiny"


def render_html(model: Model, fragment: bool = False) -> str:
    """The scorecard page of ``model``; with ``fragment``, only the card itself (its
    ``<main>``, model block and calculator script, styled by scorecard.css), for a page that
    embeds it (the ``report`` page, exporters/report.py)."""
    c = card(model)
    data = {"threshold": model.threshold, "rows": [_row_data(model, row) for row in c.rows]}
    return _env().get_template("scorecard.html.j2").render(
        card=c, model=model, symbols=SYMBOLS, density=density(c), threshold=number_text(c.threshold),
        data=script_json(data), fragment=fragment)


register(Exporter("html", ".html", render_html,
                  "the scorecard as a one-page printable card and on-screen calculator"))
