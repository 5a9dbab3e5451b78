"""``scorecard predict`` in columns: the runtime's scores, predictions and probabilities,
computed with numpy and pyarrow a batch of rows at a time, written as the runtime writes them.

The runtime (runtime/score.py, runtime/table.py) stays the reference and the code users
vendor; this module gives exactly its output, byte for byte, at millions of rows a second:

- values are read as ``runtime.score.coerce`` reads them: a missing cell is one ``str.strip()``
  empties; a number has the one grammar of ``runtime.score.NUMBER`` (checked with a regular
  expression, then parsed by pyarrow to the nearest double, as ``float()`` does; or read by
  pyarrow's CSV reader straight to float64 where that is the same, trainer/data/csv_lines.py);
  an integral value within the input's ``int_limits`` is an int;
- the score is added in float64 left to right in ``model.terms`` order, the runtime's order.
  Where the runtime adds ints, every partial sum is an integer of at most 2^53 (the model file
  guarantees it), which a double holds exactly; where it adds a float, it converts the int to
  the same double first. So the doubles here are the runtime's numbers, and a row's score is
  written as an int exactly when the runtime's is an int (no float intercept, points or
  value took part);
- a float score or probability is written as ``repr`` writes it (scorecard/float_text.py, with
  orjson, no Python object per row); probabilities are computed as ``runtime.risk.risk_function``
  computes them, with the same floating-point operations (``BatchScorer.risks``);
- a row the runtime refuses (a value that is not a number) stops the command with the
  runtime's message, after the rows before it, as the runtime does.

Memory is bounded by the batch (trainer/data/csv_lines.py's blocks, columnar.py's Parquet
batches), not the file. Both cores work: the main thread only reads the file and cuts it at
line ends, and ``WORKERS`` threads each parse, score and format a block of their own (numpy
and pyarrow release the GIL), the output written in file order; the per-batch Python work is
a fixed number of calls. No Python object goes through
pyarrow's conversion (trainer/data/arrow_values.py): its first one imports pandas.
"""
from __future__ import annotations

import codecs
import csv
import io
import os
from collections import deque
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Callable, Iterator, TextIO

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
from scorecard.float_text import float_text
from scorecard.runtime.errors import RowError
from scorecard.runtime.explain import check_k, explain, reason_cells, reason_columns
from scorecard.runtime.model import Model
from scorecard.runtime.score import EXACT, WHITESPACE, format_number
from scorecard.runtime.table import ScoredTable, added_columns
from scorecard.trainer.data.arrow_values import booleans, numbers, text, texts as as_texts
from scorecard.trainer.data.arrow_values import to_numpy as _np
from scorecard.trainer.data.columnar import ArrowRefused, is_parquet, runtime_batches_after, text_batches
from scorecard.trainer.data.workbook import is_workbook
from scorecard.trainer.data.csv_lines import Block, LineBatch, line_blocks
from scorecard.trainer.vectorised import Column, policy_column, totals

#: ``runtime.score.NUMBER`` without its surrounding whitespace (cells are trimmed first), in
#: pyarrow's (RE2) syntax.
NUMBER = r"^[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?$"


def _quoted_characters() -> str:
    """The characters that make ``csv.writer(lineterminator="\\n")`` quote a cell (they
    differ between Python versions: 3.11 leaves a carriage return unquoted)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    found = ""
    for c in ',"\r\n':
        out.seek(0)
        out.truncate()
        writer.writerow([c, "x"])
        if out.getvalue().startswith('"'):
            found += c
    return found


QUOTED = _quoted_characters()
QUOTED_PATTERN = "[" + "".join("\\" + c if c in '"' else {"\r": "\\r", "\n": "\\n"}.get(c, c) for c in QUOTED) + "]"


#: Constant cells (pyarrow scalars made without converting a Python object: arrow_values.py).
EMPTY, COMMA, QUOTE, ONE, ZERO = (text(c) for c in ("", ",", '"', "1", "0"))

#: Whole scores spanning fewer values than this get each value's probability written once.
WHOLE_RANGE = 1 << 16

#: Batches scored at once, in threads (pyarrow and numpy release the GIL): the reader reads
#: the next block meanwhile.
WORKERS = 2
#: Batches read and handed to the threads ahead of the one being written: enough that a write
#: the kernel makes slow (fresh page-cache pages) does not leave them idle (medians of 4
#: interleaved runs on 10^7 rows: 5.16 s against 5.34 s with 2 ahead); memory holds this many
#: batches more (about 10 MB each).
AHEAD = 3 * WORKERS


class RowRefused(Exception):
    """A row the runtime refuses: its position in the batch and the runtime's message."""

    def __init__(self, row: int, message: str):
        super().__init__(message)
        self.row = row
        self.message = message


def _trim(cells: pa.Array) -> pa.Array:
    return pc.utf8_trim(cells, WHITESPACE)


class BatchScorer:
    """Scores batches of text cells for one model (prepared once)."""

    def __init__(self, model: Model):
        self.model = model
        self.needed = {i.name for i in model.needs_value}
        self.with_probability = model.probability is not None
        if self.with_probability and model.probability["method"] == "table":
            self.table_scores = np.array([float(row["score"]) for row in model.probability["table"]])
            self.table_risks = np.array([float(row["risk"]) for row in model.probability["table"]])

    def read(self, batch: pa.RecordBatch) -> tuple[dict[str, Column], np.ndarray]:
        """(columns, scored): each used input's values and which rows get a score. Raises
        RowRefused for the first row (in row order, then input order) the runtime refuses."""
        n = batch.num_rows
        scored = np.ones(n, dtype=bool)  # rows whose used inputs so far all have a value
        refused: list[tuple[int, int, str]] = []  # (row, input position, message)
        columns: dict[str, Column] = {}
        for position, inp in enumerate(self.model.used_inputs):
            cells = batch.column(inp.name)
            if inp.type == "categorical":
                missing = _np(pc.equal(_trim(cells), EMPTY))
                columns[inp.name] = policy_column(self.model, inp.name, missing, text=cells)
            elif cells.type == pa.float64():  # read as numbers: every cell empty (null) or finite
                parsed, missing = _float_cells(cells)
                columns[inp.name] = policy_column(self.model, inp.name, missing, number=parsed,
                                                  integral=self._integral(inp.name, parsed))
            else:
                plain = _plain_numbers(cells)
                if plain is not None:  # no whitespace to trim, every filled cell a number
                    parsed, missing = plain
                    ok = np.ones(n, dtype=bool)
                else:
                    trimmed = _trim(cells)
                    missing = _np(pc.equal(trimmed, EMPTY))
                    ok = _np(pc.match_substring_regex(trimmed, NUMBER))
                    parsed = _np(pc.cast(pc.if_else(booleans(ok), trimmed, text("0")), pa.float64()))
                finite = np.isfinite(parsed)
                bad = np.flatnonzero(scored & ~missing & ~(ok & finite))
                if len(bad):
                    k = int(bad[0])
                    cell = cells[k].as_py()
                    what = "is not a finite number" if ok[k] else "is not a number"
                    refused.append((k, position, f"column {inp.name!r}: {cell!r} {what}"))
                columns[inp.name] = policy_column(self.model, inp.name, missing, number=parsed,
                                                  integral=self._integral(inp.name, parsed))
            if inp.name in self.needed:
                scored &= ~missing
        if refused:
            row, _, message = min(refused)
            raise RowRefused(row, message)
        return columns, scored

    def _integral(self, name: str, parsed: np.ndarray) -> np.ndarray:
        """Where the runtime holds an input's value as an int: integral, within its int limit."""
        return (np.floor(parsed) == parsed) & (np.abs(parsed) <= self.model.int_limits.get(name, EXACT))

    def totals(self, columns: dict[str, Column], n: int) -> tuple[np.ndarray, np.ndarray]:
        """(score, is_float) of every row (trainer/vectorised.py)."""
        return totals(self.model, columns, n)

    def added(self, total: np.ndarray, is_float: np.ndarray, scored: np.ndarray) -> list[pa.Array]:
        """The text of the added columns: score, prediction (and probability)."""
        floats = scored & is_float
        out = [self.score_text(total, is_float, scored), pc.if_else(booleans(total > self.model.threshold), ONE, ZERO)]
        if self.with_probability:
            out.append(self.probability_text(np.where(scored, total, 0.0), floats.any()))
        if scored.all():
            return out
        blank = booleans(~scored)
        return [pc.if_else(blank, EMPTY, column) for column in out]

    def score_text(self, total: np.ndarray, is_float: np.ndarray, scored: np.ndarray) -> pa.Array:
        """The score column's text: an int or a float as the runtime holds it (unscored rows: 0,
        blanked by the caller)."""
        floats = scored & is_float
        if floats.all():  # a float score in every row (a linear input read as a float, say)
            return float_text(total)
        score = _int_text(np.where(scored & ~is_float, total, 0.0))
        if floats.any():
            score = pc.replace_with_mask(score, booleans(floats), float_text(total[floats]))
        return score

    def probability_text(self, total: np.ndarray, floats: bool) -> pa.Array:
        """The probability column's text: each distinct risk written once and taken by row where
        they are few (a risk table's rows; the whole scores of a card, ``floats`` False, within
        ``WHOLE_RANGE``), else every row's risk written."""
        if self.model.probability["method"] == "table":
            return float_text(self.table_risks).take(numbers(self.table_rows(total)))
        if not floats and len(total):
            low = total.min()
            if total.max() - low < WHOLE_RANGE:
                whole = float_text(self.risks(np.arange(low, total.max() + 1)))
                return whole.take(numbers((total - low).astype(np.int64)))
        return float_text(self.risks(total))

    def table_rows(self, total: np.ndarray) -> np.ndarray:
        """The risk table's row of every score (``bisect_right``, the first row below it)."""
        return np.maximum(np.searchsorted(self.table_scores, total, side="right") - 1, 0)

    def risks(self, total: np.ndarray) -> np.ndarray:
        """``runtime.risk.risk_function``'s risk of every score, computed as it computes it: the
        table row by ``bisect_right``; the logistic with the same IEEE operations in the same
        order and pyarrow's ``exp``, which is the C library's ``exp`` that ``math.exp`` calls
        (numpy's own vectorised ``exp`` differs in the last bit; tests/cli/test_float_text.py)."""
        probability = self.model.probability
        if probability["method"] == "table":
            return self.table_risks[self.table_rows(total)]
        z = probability["scale"] * (total - probability.get("center", 0))
        upper = z >= 0
        e = _np(pc.exp(numbers(np.where(upper, -z, z))))
        return np.where(upper, 1.0 / (1.0 + e), e / (1.0 + e))


def _int_text(values: np.ndarray) -> pa.Array:
    return pc.cast(numbers(values.astype(np.int64)), pa.string())


#: The bytes of a number in plain ASCII (``NUMBER``'s alphabet, no whitespace).
NUMBER_BYTES = b"0123456789.eE+-"


def _data(cells: pa.Array) -> tuple[np.ndarray, bytes] | None:
    """(offsets, bytes) of a string array's cells (offsets from 0), None for another type."""
    if cells.type != pa.string():
        return None
    offsets = np.frombuffer(cells.buffers()[1], dtype=np.int32)[cells.offset:cells.offset + len(cells) + 1]
    data = cells.buffers()[2]
    return offsets - offsets[0], b"" if data is None else bytes(memoryview(data)[offsets[0]:offsets[-1]])


def _float_cells(cells: pa.Array) -> tuple[np.ndarray, np.ndarray]:
    """(values, missing) of a float64 column (trainer/data/csv_lines.py's ``numbers``): a null
    is an empty cell, read as 0 and missing."""
    if not cells.null_count:
        return _np(cells), np.zeros(len(cells), dtype=bool)
    missing = _np(cells.is_null())
    return np.where(missing, 0.0, np.frombuffer(cells.buffers()[1], dtype=np.float64)[cells.offset:cells.offset + len(cells)]), missing


def _plain_numbers(cells: pa.Array) -> tuple[np.ndarray, np.ndarray] | None:
    """(values, missing) of a column whose cells are all empty or numbers written with
    ``NUMBER_BYTES`` only (no whitespace to trim): pyarrow's cast reads exactly ``NUMBER``'s
    strings over that alphabet, each to the nearest double (as ``float()``;
    tests/cli/test_vectorised.py checks every string of up to 6 such characters).
    None otherwise: the caller trims and checks cell by cell."""
    found = _data(cells)
    if found is None or cells.null_count:
        return None
    offsets, data = found
    if data.translate(None, NUMBER_BYTES):
        return None
    missing = offsets[1:] == offsets[:-1]
    filled = pc.if_else(booleans(missing), text("0"), cells) if missing.any() else cells
    try:
        return _np(pc.cast(filled, pa.float64())), missing
    except pa.ArrowInvalid:
        return None


def _csv_cells(cells: pa.Array) -> pa.Array:
    """Cells as ``csv.writer`` writes them: quoted (quotes doubled) when they hold a character
    it quotes."""
    found = _data(cells)
    if not QUOTED or (found is not None and not any(c.encode() in found[1] for c in QUOTED)):
        return cells
    needs = pc.match_substring_regex(cells, QUOTED_PATTERN)
    if not pc.any(needs).as_py():
        return cells
    quoted = pc.binary_join_element_wise(QUOTE, pc.replace_substring(cells, '"', '""'), QUOTE, EMPTY)
    return pc.if_else(needs, quoted, cells)


class _Output:
    """The scored CSV as ``csv.writer(lineterminator="\\n")`` writes it, in pieces of many rows:
    the header, then each row as ``"\\n" + row`` (the form of trainer/data/csv_lines.py's lines),
    then the last line break (:meth:`end`). Rows go to the file's bytes directly when it is
    UTF-8 text without newline translation (a file of ``atomic_output``, standard output on
    POSIX), which saves decoding and encoding them again."""

    def __init__(self, outfile: TextIO, header: list[str]):
        text = io.StringIO()
        csv.writer(text, lineterminator="\n").writerow(header)
        outfile.write(text.getvalue()[:-1])
        self.outfile = outfile
        self.raw = _raw(outfile)

    def rows(self, rows: pa.Array) -> None:
        """Write rows (a string array of ``"\\n" + row``) in one piece, from pyarrow's buffer."""
        offsets = np.frombuffer(rows.buffers()[1], dtype=np.int32)[rows.offset:rows.offset + len(rows) + 1]
        data = memoryview(rows.buffers()[2])[offsets[0]:offsets[-1]]
        if self.raw is not None:
            self.raw.write(data)
        else:
            self.outfile.write(str(data, "utf-8"))

    def end(self) -> None:
        if self.raw is not None:
            self.raw.write(b"\n")
        else:
            self.outfile.write("\n")


def _raw(outfile: TextIO):
    """The binary file under ``outfile`` (flushed), when writing UTF-8 bytes there is the same
    as writing the text; else None."""
    raw, encoding = getattr(outfile, "buffer", None), getattr(outfile, "encoding", None)
    if raw is None or not encoding or codecs.lookup(encoding).name != "utf-8" or os.linesep != "\n":
        return None
    outfile.flush()
    return raw


def score_file(model: Model, path: str, outfile: TextIO, source: str | None = None, explain: int = 0) -> ScoredTable:
    """``scorecard predict``: read ``path`` (CSV or Parquet) in batches, write each row with
    score, prediction (and probability) to ``outfile``, as ``runtime.table.score_csv`` does;
    ``explain`` K > 0 adds its reason codes, computed row by row by the runtime (runtime/explain.py).
    A CSV file's rows are written back from their own text where that is what ``csv.writer``
    writes (trainer/data/csv_lines.py). A CSV block is parsed in the thread that scores it
    (:func:`_in_order`); from a block pyarrow refuses on, the runtime's reader reads the rest."""
    source = source or path
    added = added_columns(model) + (reason_columns(check_k(explain)) if explain else ())
    used = [inp.name for inp in model.used_inputs]
    if is_parquet(path) or is_workbook(path):
        header, batches, locate = text_batches(path, source, added)
        items: Iterator[Block | LineBatch] = (LineBatch(batch) for batch in batches)
    else:
        # numbers read as float64 where they can be; --explain reads each row's cells as text
        numbers = frozenset() if explain else frozenset(i.name for i in model.used_inputs if i.type != "categorical")
        header, items, locate = line_blocks(path, source, added, used, numbers)
    missing = [name for name in used if name not in header]
    if missing:
        raise RowError(f"{source}: the model needs column {missing[0]!r}, which the data lacks")
    out = _Output(outfile, header + list(added))
    scorer = BatchScorer(model)
    done = ScoredTable(rows=0, unscored=0)
    try:
        with ThreadPoolExecutor(max_workers=WORKERS) as pool:
            while True:
                try:
                    for result in _in_order(pool, items, lambda item: _work(scorer, item, explain)):
                        if result.rows is not None:
                            out.rows(result.rows)
                        if result.refused is not None:  # the rows before it are written, as the runtime writes them
                            raise RowError(f"{source}: {locate(done.rows + result.refused.row)}: {result.refused.message}")
                        done = ScoredTable(rows=done.rows + result.count, unscored=done.unscored + result.unscored)
                    break
                except ArrowRefused:  # the rows after those written, from the runtime's reader (which never refuses)
                    items = (LineBatch(batch) for batch in runtime_batches_after(path, source, added, done.rows))
    finally:
        out.end()
    return done


@dataclass(frozen=True)
class Rendered:
    """A batch scored: its output rows (each ``"\\n" + row``; None for none), how many rows of
    the file it holds and how many of them got no score; ``refused`` the runtime's refusal of
    the row after them (the batch's others are not written), or None."""

    rows: pa.Array | None
    count: int
    unscored: int
    refused: RowRefused | None = None


def _in_order(pool: ThreadPoolExecutor, items: Iterator, work: Callable) -> Iterator:
    """``work(item)`` of every item, computed in ``pool`` up to AHEAD items ahead and given
    in the items' order. An error of ``work`` comes out at its item's turn; an error of the
    items themselves (ArrowRefused, the runtime reader's RowError) after the results of the
    items before it. Work not yet given is cancelled when the caller stops."""
    ahead: deque[Future] = deque()
    items = iter(items)
    try:
        while True:
            try:
                item = next(items)
            except StopIteration:
                break
            except Exception:  # the reader stops here: the items before it first
                while ahead:
                    yield ahead.popleft().result()
                raise
            ahead.append(pool.submit(work, item))
            if len(ahead) > AHEAD:
                yield ahead.popleft().result()
        while ahead:
            yield ahead.popleft().result()
    finally:
        for future in ahead:
            future.cancel()


def _work(scorer: BatchScorer, item: Block | LineBatch, explain: int) -> Rendered:
    """One block or batch parsed (raises ArrowRefused where pyarrow refuses it) and scored."""
    batch = item.parse()
    if not batch.num_rows:
        return Rendered(None, 0, 0)
    try:
        rows, unscored = _render(scorer, batch, explain)
    except RowRefused as refused:
        before = _render(scorer, batch.slice(refused.row), explain)[0] if refused.row else None
        return Rendered(before, refused.row, 0, refused)
    return Rendered(rows, batch.num_rows, unscored)


def _render(scorer: BatchScorer, item: LineBatch, explain: int = 0) -> tuple[pa.Array, int]:
    """One batch scored (with ``explain`` reasons): its output rows, each ``"\\n" + row``, and
    the number of its rows without a score. Raises RowRefused."""
    batch = item.batch
    columns, scored = scorer.read(batch)
    total, is_float = scorer.totals(columns, batch.num_rows)
    cells = scorer.added(total, is_float, scored) + (_reason_cells(scorer.model, batch, explain) if explain else [])
    lines = item.lines()
    if lines is not None:  # "\n" + the row's own text
        rows = pc.binary_join_element_wise(lines, *cells, COMMA)
    else:
        first, *rest = [_csv_cells(c) for c in batch.columns]
        rows = pc.binary_join_element_wise(pc.binary_join_element_wise(text("\n"), first, EMPTY), *rest, *cells, COMMA)
    return rows, int((~scored).sum())


def _reason_cells(model: Model, batch: pa.RecordBatch, k: int) -> list[pa.Array]:
    """The text of the reason columns of a batch (``reason_1..k``, ``points_1..k``), each row's
    from the runtime's ``explain`` of the row's cells, as ``runtime.table.score_csv`` writes them."""
    used = [inp.name for inp in model.used_inputs]
    cells = {name: batch.column(batch.schema.get_field_index(name)).to_pylist() for name in used}
    texts: list[list[str]] = [[] for _ in range(2 * k)]
    for i in range(batch.num_rows):
        words, points = reason_cells(explain(model, {name: cells[name][i] for name in used}, k), k)
        for j in range(k):
            texts[j].append("" if words[j] is None else words[j])
            texts[k + j].append(format_number(points[j]))
    return [_csv_cells(as_texts(column)) for column in texts]
