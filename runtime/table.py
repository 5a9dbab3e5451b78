"""Scoring a CSV file with the standard library's ``csv`` module.

Shared by ``python -m scorecard.runtime`` and ``scorecard predict``: the output holds every
input column unchanged plus ``score`` and ``prediction``, and ``probability`` (the risk of
runtime/risk.py, written like a float score) when the model carries a score-to-risk map;
rows that cannot be scored under the missing-value policy get empty cells and are counted
for the caller to report.
"""
from __future__ import annotations

import codecs
import csv
import sys
from dataclasses import dataclass
from typing import Iterator, TextIO

from .explain import check_k, ranked, reason_columns, reason_texts
from .model import Model
from .risk import risk_function
from .score import RowError, decide, format_number, term_points, total

#: The output names scoring adds, defined once for the whole project: the runtime table and
#: every export that adds columns (SQL, ONNX, Python) write them, so training refuses a data
#: column with any of these names and scoring refuses one with a name it adds.
RESERVED = ("score", "prediction", "probability")
#: The columns added for every model.
ADDED = RESERVED[:2]
#: The columns added for a model with ``probability``.
ADDED_WITH_PROBABILITY = RESERVED


def added_columns(model: Model) -> tuple[str, ...]:
    """The columns scoring adds for ``model``: probability only when it has a score-to-risk map."""
    return ADDED_WITH_PROBABILITY if model.probability is not None else ADDED


@dataclass(frozen=True)
class ScoredTable:
    """How a scoring pass went: rows written and rows left without a score."""

    rows: int
    unscored: int


#: How every command opens a CSV file (train, predict, verify --data, the runtime and the
#: exported Python): UTF-8, where a leading byte order mark (as Excel writes) is dropped, not
#: read as part of the first column's name.
CSV_ENCODING = "utf-8-sig"


def open_csv(path: str) -> TextIO:
    """``path`` opened for the CSV reader as every command opens it (see ``CSV_ENCODING``)."""
    return open(path, newline="", encoding=CSV_ENCODING)


#: The largest CSV cell read (the csv module's default, 131,072 characters, is far too small).
FIELD_SIZE_LIMIT = min(sys.maxsize, 2**31 - 1)


def csv_reader(infile: TextIO):
    """``csv.reader`` for any cell size: every CSV reader of the project starts here."""
    if csv.field_size_limit() < FIELD_SIZE_LIMIT:
        csv.field_size_limit(FIELD_SIZE_LIMIT)
    return csv.reader(infile)


def not_utf8(source: str, exc: UnicodeDecodeError, path: object = None) -> str:
    """``SOURCE: not UTF-8 text (REASON at byte N)``, N the offset in the file: a text file
    decodes in chunks, so ``exc.start`` counts from its chunk; ``path`` (a file name) is
    read again to find the real offset."""
    offset = exc.start
    if isinstance(path, str):
        found = _first_bad_byte(path)
        if found is not None:
            offset = found
    return f"{source}: not UTF-8 text ({exc.reason} at byte {offset})"


def _first_bad_byte(path: str) -> int | None:
    decoder = codecs.getincrementaldecoder("utf-8")()
    done = 0
    try:
        with open(path, "rb") as fh:
            while True:
                chunk = fh.read(1 << 20)
                try:
                    decoder.decode(chunk, final=not chunk)
                except UnicodeDecodeError as exc:
                    return done - len(decoder.getstate()[0]) + exc.start
                if not chunk:
                    return None
                done += len(chunk)
    except OSError:
        return None


def csv_records(infile: TextIO, source: str, added: tuple[str, ...] = ()) -> tuple[list[str], Iterator]:
    """The one CSV reader of every command: (header, records), each record ``(line, cells)``
    with ``line`` the file line it starts on. Refuses (RowError, naming ``source``) an empty
    file, a duplicate column name, a clash with ``added``, a row with the wrong number of
    cells, text that is not UTF-8 (with the file's byte offset) and malformed CSV; blank
    lines are skipped; a cell may be of any size."""
    reader = csv_reader(infile)
    path = getattr(infile, "name", None)
    try:
        header = read_header(reader, source, added)
    except UnicodeDecodeError as exc:
        raise RowError(not_utf8(source, exc, path)) from None
    except csv.Error as exc:
        raise RowError(f"{source}: not a readable CSV file ({exc})") from None

    def records() -> Iterator[tuple[int, list[str]]]:
        start = reader.line_num
        try:
            for cells in reader:
                if cells:
                    if len(cells) != len(header):
                        raise RowError(f"{source}: line {start + 1} has {len(cells)} cells, the header has {len(header)}")
                    yield start + 1, cells
                start = reader.line_num
        except UnicodeDecodeError as exc:
            raise RowError(not_utf8(source, exc, path)) from None
        except csv.Error as exc:
            raise RowError(f"{source}: line {start + 1}: not readable CSV ({exc})") from None

    return header, records()


#: Separators of files saved as "CSV" that are not comma-separated (Excel in a locale with
#: decimal commas writes ';'; "text, tab-delimited" a tab), named for the message.
OTHER_SEPARATORS = {";": "semicolons", "\t": "tabs", "|": "vertical bars"}


def read_header(reader: Iterator[list[str]], source: str, added: tuple[str, ...] = ADDED) -> list[str]:
    """The CSV header, refusing empty files, duplicate names, clashes with the added columns,
    and a header of one name that holds another separator (``age;bmi;y``): read with commas,
    such a file is one column, and the later errors (a row with more cells than the header, no
    column ``y``) would not say why."""
    try:
        header = next(reader)
    except StopIteration:
        raise RowError(f"{source}: the file is empty (no header row)") from None
    if len(header) == 1:
        for separator, name in OTHER_SEPARATORS.items():
            if len([part for part in header[0].split(separator) if part.strip()]) > 1:
                raise RowError(f"{source}: the header is one column, {header[0]!r}: the file seems separated by "
                               f"{name}; scorecard reads comma-separated files (save it as CSV with commas between "
                               "cells and points in numbers)")
    seen: set[str] = set()
    for name in header:
        if name in seen:
            raise RowError(f"{source}: column {name!r} appears twice in the header")
        seen.add(name)
    for name in added:
        if name in seen:
            raise RowError(f"{source}: the data already has a column {name!r}; rename it before scoring")
    return header


def score_csv(model: Model, infile: TextIO, outfile: TextIO, source: str = "DATA", explain: int = 0) -> ScoredTable:
    """Read CSV rows from ``infile``, write them with score and prediction (and probability,
    when the model has one) to ``outfile``; ``explain`` K > 0 adds the reason codes
    ``reason_1..reason_K`` and ``points_1..points_K`` (runtime/explain.py), empty cells where
    a row has fewer reasons or no score."""
    added = added_columns(model)
    with_probability = len(added) > len(ADDED)
    if explain:
        added += reason_columns(check_k(explain))
    texts = reason_texts(model)
    risk = risk_function(model.probability)
    header, records = csv_records(infile, source, added)
    missing = [i.name for i in model.used_inputs if i.name not in header]
    if missing:
        raise RowError(f"{source}: the model needs column {missing[0]!r}, which the data lacks")
    writer = csv.writer(outfile, lineterminator="\n")
    writer.writerow(header + list(added))
    rows = unscored = 0
    for line_no, cells in records:
        try:
            points = term_points(model, dict(zip(header, cells)))
        except RowError as exc:
            raise RowError(f"{source}: line {line_no}: {exc}") from None
        value = total(model, points)
        rows += 1
        unscored += value is None
        out = [format_number(value), format_number(decide(value, model.threshold))]
        if with_probability:
            out.append(format_number(risk(value)))
        if explain:
            order = ranked(points or [], explain)
            blanks = [""] * (explain - len(order))
            out += [texts[i] for i in order] + blanks + [format_number(points[i]) for i in order] + blanks  # type: ignore[index]
        writer.writerow(cells + out)
    return ScoredTable(rows=rows, unscored=unscored)

