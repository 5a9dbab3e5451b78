"""Live solver progress on the terminal: incumbent, bound, gap and time, updated in place.

Quiet when standard error is not a terminal (pipes, CI logs), so logs stay clean, unless
``verbose``: then each update is written as a line of its own (nothing redrawn in place), and
each step of the training (``step: cross-validation, ...``) on a line as it begins.
"""
from __future__ import annotations

import sys
import time
from typing import TextIO


class LiveProgress:
    """A ``progress`` callback for :func:`scorecard.trainer.train` that redraws one line.

    Redraws at most every ``interval`` seconds; :meth:`close` ends the line. Where the stream
    is not a terminal it writes nothing, or with ``verbose`` one plain line per update (at most
    one per ``interval``), so a piped log shows the solver's progress too.
    """

    def __init__(self, stream: TextIO | None = None, interval: float = 0.2, verbose: bool = False) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.terminal = bool(getattr(self.stream, "isatty", lambda: False)())
        self.enabled = self.terminal or verbose
        self.interval = interval
        self._last = 0.0
        self._drawn = False

    def __call__(self, event) -> None:
        if not self.enabled:
            return
        if getattr(event, "step", False):  # a new step: always shown
            self.close()
            if not self.terminal:
                self.stream.write(f"step: {event.message}\n")
                self.stream.flush()
            return
        now = time.monotonic()
        if now - self._last < self.interval:
            return
        self._last = now
        if not self.terminal:
            self.stream.write(describe(event) + "\n")
            self.stream.flush()
            return
        self.stream.write("\r" + describe(event) + "\x1b[K")
        self.stream.flush()
        self._drawn = True

    def close(self) -> None:
        if self._drawn:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
            self._drawn = False


def describe(event) -> str:
    """One line for a progress event: ``solving  12.3s  best 0.0321  bound 0.0290  gap 9.7%``."""
    def num(v) -> str:
        return "-" if v is None else f"{v:.4g}"

    gap = "-" if event.gap is None else f"{100 * event.gap:.1f}%"
    message = f"  {event.message}" if getattr(event, "message", None) else ""
    return f"solving {event.elapsed:6.1f}s  best {num(event.incumbent)}  bound {num(event.bound)}  gap {gap}{message}"
