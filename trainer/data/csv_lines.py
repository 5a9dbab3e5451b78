"""A CSV file in batches with each row's own text, for ``scorecard predict`` to write back as read.

``predict`` writes every input cell unchanged, as ``csv.writer`` writes it (runtime/table.py).
Where a stretch of the file holds no double quote, no carriage return and no blank line, every
line is one row, every cell is unquoted and holds no comma, and ``csv.writer`` writes the row
back exactly as the line reads: so the line's bytes are the output, and only the columns the
model reads need to be parsed. This module reads the file in blocks cut at line ends and
gives, per block, those columns (pyarrow) and the lines themselves (a string array over the
block's bytes, no copy), each as ``"\\n" + line``: the line break that ends the previous row
starts each element, so a row's output is its element, a comma and the added cells.

The columns named as ``numbers`` (a model's numeric inputs) are read straight to float64 in a
block of lines where every one of their cells is empty (null) or a finite number as pyarrow
reads it (spaces and tabs around it trimmed): that saves the text and its conversion. Its
grammar over the characters it accepts is ``runtime.score.NUMBER``'s, each value the nearest
double as ``float()`` reads it (tests/trainer/test_csv_lines.py compares every short string);
a block with any other cell there (a word, ``inf``, other whitespace) is read as text.

Anything else goes the general way of trainer/data/columnar.py, with every column parsed:
a block with a carriage return or a blank line is parsed alone (its cuts are still row ends),
and from the first double quote on (a quoted cell may hold line breaks, so line ends may
not be row ends) the rest of the file is read by pyarrow's streaming reader. Whatever pyarrow
refuses goes to the runtime's reader, as in ``columnar.text_batches``.
"""
from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from typing import Callable, Iterator

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pa_csv

from .columnar import ArrowRefused, _arrow_csv_batches, _csv_options, csv_header, csv_line, with_runtime_reader

#: Bytes read at once: a batch is the rows of one block (a row longer than this is read whole).
#: pyarrow parses a block on one thread (``predict``'s scoring thread; one thread costs a quarter
#: less CPU than pyarrow's threads), each core a block of its own. 4 MB (about 75,000 rows of
#: six numbers) keeps a block's columns within a core's 4 MB L2 cache, and the last block, which
#: one core scores alone, short; 16 MB cost the same CPU or up to 5 % more (medians of 5 at load 8).
RAW_BLOCK = 1 << 22


@dataclass(frozen=True)
class LineBatch:
    """Rows of a CSV file: ``batch`` the text of its columns (only those asked for where
    ``block`` is given), ``block`` the rows' lines as read, each ``"\\n" + line`` (see
    :meth:`lines`), or None when the rows' text must be written cell by cell; ``breaks`` the
    positions of the block's line breaks (one a row), where already found."""

    batch: pa.RecordBatch
    block: bytes | bytearray | None = None
    breaks: np.ndarray | None = None

    @property
    def num_rows(self) -> int:
        return self.batch.num_rows

    def parse(self) -> LineBatch:
        """Itself: already parsed (see :class:`Block`)."""
        return self

    def lines(self) -> pa.Array | None:
        """Each row's ``"\\n" + line`` as a string array over the block's bytes (no copy)."""
        if self.block is None:
            return None
        breaks = _breaks(self.block) if self.breaks is None else self.breaks
        offsets = np.append(breaks, len(self.block)).astype(np.int32)
        return pa.StringArray.from_buffers(len(breaks), pa.py_buffer(offsets), pa.py_buffer(self.block))

    def slice(self, length: int) -> LineBatch:
        """The first ``length`` rows."""
        if self.block is None or length == self.num_rows:
            return LineBatch(self.batch.slice(0, length), self.block, self.breaks)
        breaks = _breaks(self.block) if self.breaks is None else self.breaks
        return LineBatch(self.batch.slice(0, length), self.block[:int(breaks[length])], breaks[:length])


@dataclass(frozen=True)
class Block:
    """Lines of a CSV file cut at line ends but not parsed yet, each ``"\\n" + line``: parsed
    by :meth:`parse` in the thread that scores them, so that the thread reading the file only
    reads (``predict``'s two cores both parse). ``parse`` raises ArrowRefused where pyarrow
    refuses the block: the caller reads the file from there with the runtime's reader
    (``columnar.runtime_batches_after``)."""

    data: bytearray
    header: list[str]
    columns: list[str]
    numbers: frozenset[str]

    def parse(self) -> LineBatch:
        return _parse(self.data, self.header, self.columns, self.numbers)


def line_batches(path: str, source: str, added: tuple[str, ...], columns: list[str], numbers: frozenset[str] = frozenset()
                 ) -> tuple[list[str], Iterator[LineBatch], Callable[[int], str]]:
    """(header, batches, locate) of the CSV file ``path``, as ``columnar.text_batches`` reads
    it (same header checks, rows, errors and messages), each batch a :class:`LineBatch`;
    where it has lines, only ``columns`` are parsed, those of ``numbers`` as float64 where the
    block's cells allow it (see the module's docstring)."""
    header, blocks, locate = line_blocks(path, source, added, columns, numbers)
    parsed = (batch for batch in (block.parse() for block in blocks) if batch.num_rows)
    rows = with_runtime_reader(parsed, path, source, added)
    return header, (b if isinstance(b, LineBatch) else LineBatch(b) for b in rows), locate


def line_blocks(path: str, source: str, added: tuple[str, ...], columns: list[str], numbers: frozenset[str] = frozenset()
                ) -> tuple[list[str], Iterator[Block | LineBatch], Callable[[int], str]]:
    """As :func:`line_batches`, with the plain stretches of the file as :class:`Block` s left
    to parse (a block may hold no row) and without the fallback: ArrowRefused comes out of the
    iteration or out of a block's ``parse``, and the caller reads the rest of the file with
    ``columnar.runtime_batches_after`` (scorecard/vectorised.py parses in its scoring threads)."""
    header = csv_header(path, source, added)
    return header, _blocks(path, header, columns, numbers), lambda k: f"line {csv_line(path, k)}"


def _blocks(path: str, header: list[str], columns: list[str], numbers: frozenset[str]) -> Iterator[Block | LineBatch]:
    """The file after its header, block by block (see the module's docstring)."""
    with open(path, "rb") as fh:
        first = fh.readline()
        if not first.endswith(b"\n") or b'"' in first or b"\r" in first:  # a header the general way reads
            yield from (LineBatch(b) for b in _arrow_csv_batches(path, header))
            return
        position = len(first) - 1  # the header's line break: each block starts with one
        fh.seek(position)
        pending = b""
        while True:
            data, more = _read_after(fh, pending)
            cut = data.rfind(b"\n") if more else len(data)
            if more and cut <= 0:  # no line end yet: a row longer than the block
                pending = bytes(data)
                continue
            pending = bytes(data[cut:])
            del data[cut:]  # the block: its rows, each "\n" + line
            if b'"' in data:  # quoted cells from here on: pyarrow's reader for the rest
                yield from (LineBatch(b) for b in _arrow_csv_batches(path, header, position))
                return
            if len(data) > 1:  # more than the file's last line break
                yield Block(data, header, columns, numbers)
            position += len(data)
            if not more:
                return


def _read_after(fh, pending: bytes) -> tuple[bytearray, int]:
    """(``pending`` + the next RAW_BLOCK bytes of the file, how many were read), read into one
    new buffer (no copy to join them, none to cut the block from it)."""
    status = os.fstat(fh.fileno())
    size = RAW_BLOCK  # a small (regular) file gets a small buffer
    if stat.S_ISREG(status.st_mode):
        size = max(min(RAW_BLOCK, status.st_size - fh.tell()), 0)
    data = bytearray(len(pending) + size)
    data[:len(pending)] = pending
    more = fh.readinto(memoryview(data)[len(pending):])
    del data[len(pending) + more:]
    return data, more


def _parse(block: bytes | bytearray, header: list[str], columns: list[str], numbers: frozenset[str] = frozenset()) -> LineBatch:
    """One block's rows: with its lines when they are the rows' text (see the module's docstring)."""
    if b"\r" in block or block.endswith(b"\n") or not _utf8(block):
        return LineBatch(_read(block, header))
    batch = _read_numbers(block, header, columns, numbers) if numbers else None
    if batch is None:
        batch = _read(block, header, columns)
    breaks = _breaks(block)
    if len(breaks) != batch.num_rows:  # a blank line (pyarrow skips it), or not one row per line: the general way
        return LineBatch(_read(block, header))
    return LineBatch(batch, block, breaks)


def _breaks(block: bytes | bytearray) -> np.ndarray:
    """The positions of the block's line breaks."""
    return np.flatnonzero(np.frombuffer(block, dtype=np.uint8) == ord("\n"))


def _read(block: bytes | bytearray, header: list[str], columns: list[str] | None = None) -> pa.RecordBatch:
    """The block's rows parsed by pyarrow: ``columns`` only, or every column."""
    read, parse, convert = _one_thread(header, block)
    read.column_names = header
    if columns:
        convert.include_columns = columns
    try:
        table = pa_csv.read_csv(pa.BufferReader(block), read, parse, convert)
    except (pa.ArrowException, OSError) as exc:
        raise ArrowRefused(str(exc)) from None
    return pa.RecordBatch.from_arrays([c.combine_chunks() for c in table.columns], names=table.column_names)


def _read_numbers(block: bytes | bytearray, header: list[str], columns: list[str], numbers: frozenset[str]) -> pa.RecordBatch | None:
    """The block's ``columns``, those of ``numbers`` as float64 (an empty cell null); None
    where pyarrow refuses one of their cells or reads it as a NaN or an infinity."""
    read, parse, convert = _one_thread(header, block)
    read.column_names = header
    convert.include_columns = columns
    convert.column_types = {name: pa.float64() if name in numbers else pa.string() for name in header}
    convert.null_values = [""]
    try:
        table = pa_csv.read_csv(pa.BufferReader(block), read, parse, convert)
    except (pa.ArrowException, OSError):
        return None
    batch = pa.RecordBatch.from_arrays([c.combine_chunks() for c in table.columns], names=table.column_names)
    for name in numbers & set(columns):
        if pc.any(pc.invert(pc.is_finite(batch.column(name)))).as_py():
            return None
    return batch


def _one_thread(header: list[str], block: bytes | bytearray):
    """pyarrow's options for one block, parsed on the caller's thread in one piece (a quarter
    faster). The block holds no double quote, so no quoted cell and no quoted line break:
    pyarrow's parser without quoting (a tenth faster)."""
    read, parse, convert = _csv_options(header, max(len(block), 1))
    read.use_threads = False
    parse.newlines_in_values = False
    parse.quote_char = False
    return read, parse, convert


def _utf8(block: bytes | bytearray) -> bool:
    """Whether the block is UTF-8 text (the columns not parsed are not checked by pyarrow)."""
    if block.isascii():
        return True
    try:
        block.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True
