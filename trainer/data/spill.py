"""The row groups of CSV files as the streamed scan read them, kept on disk for later passes.

Streamed training (``data/stream.py``) reads the data once to type it, then again for every
pass of the trainer (the design columns, the error of every row, the passes of the cutting
planes when the design does not fit the memory budget). Parsing CSV text is most of a pass:
10^7 rows of five numbers take about 8 s to parse and read as numbers, and about 0.3 s to read
back as float64 from an Arrow IPC file. So the scan writes each row group as it read it (a
column of numbers as float64, NaN where missing; any other column as its text) to a file of
its own in a temporary folder of the system's temp dir, and the later passes read those.
The folder is removed when training ends, by an error too (:meth:`Spill.open`).
"""
from __future__ import annotations

import os
import shutil
import tempfile
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Iterator

import pyarrow as pa


@dataclass
class Spill:
    """Row groups written by the scan, read back in order.

    folder: the temporary folder holding one Arrow IPC file per row group.
    parts: ``(data file, its first row number, IPC file)`` of each row group, in file order.
    numbered: columns some row group holds as numbers (text read as float64): a column the
      whole scan types categorical must not be read from here, as its cells were not kept as written.
    full: the temp dir refused a write (no room, say): nothing is kept, the files are read again.
    """

    folder: str
    parts: list[tuple[str, int, str]] = field(default_factory=list)
    numbered: set[str] = field(default_factory=set)
    full: bool = False

    @classmethod
    @contextmanager
    def open(cls) -> Iterator["Spill"]:
        """An empty spill in a new temporary folder, removed on leaving (also on an error)."""
        folder = tempfile.mkdtemp(prefix="scorecard-spill-")
        try:
            yield cls(folder)
        finally:
            shutil.rmtree(folder, ignore_errors=True)

    def write(self, path: str, first: int, batch: pa.RecordBatch) -> None:
        """Keep one row group (of data file ``path``, starting at row ``first``); when the temp
        dir cannot take it, keep nothing (``full``): the spill only saves time."""
        if self.full:
            return
        part = os.path.join(self.folder, f"{len(self.parts):06d}.arrow")
        try:
            with pa.OSFile(part, "wb") as sink, pa.ipc.new_file(sink, batch.schema) as writer:
                writer.write_batch(batch)
        except OSError:
            self.full = True
            for _, _, written in self.parts + [("", 0, part)]:
                if os.path.exists(written):
                    os.unlink(written)
            self.parts.clear()
            return
        self.parts.append((path, first, part))
        self.numbered.update(n for n, t in zip(batch.schema.names, batch.schema.types) if pa.types.is_floating(t))

    def batches(self) -> Iterator[tuple[str, int, pa.RecordBatch]]:
        """``(data file, first row number, batch)`` of every row group kept, in file order."""
        for path, first, part in self.parts:
            with pa.OSFile(part, "rb") as source:
                batch = pa.ipc.open_file(source).get_batch(0)
            yield path, first, batch
