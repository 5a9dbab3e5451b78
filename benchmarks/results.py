"""benchmarks/RESULTS.md: each benchmark owns one section, between its own markers
(``<!-- NAME:start -->`` ... ``<!-- NAME:end -->``), and rewrites only that."""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Callable

RESULTS = Path(__file__).with_name("RESULTS.md")


def markers(name: str) -> tuple[str, str]:
    return f"<!-- {name}:start -->", f"<!-- {name}:end -->"


def section(name: str) -> str:
    """The text between the markers of ``name`` ('' when the section is not there yet)."""
    start, end = markers(name)
    text = RESULTS.read_text(encoding="utf-8") if RESULTS.exists() else ""
    if start not in text or end not in text:
        return ""
    return text.split(start, 1)[1].split(end, 1)[0].strip("\n")


def write_section(name: str, body: str) -> None:
    """Put ``body`` between the markers of ``name``, or append the marked section at the end."""
    start, end = markers(name)
    text = RESULTS.read_text(encoding="utf-8") if RESULTS.exists() else "# Benchmark results\n"
    marked = f"{start}\n{body.strip(chr(10))}\n{end}"
    if start in text and end in text:
        head, rest = text.split(start, 1)
        text = head + marked + rest.split(end, 1)[1]
    else:
        text = text.rstrip("\n") + "\n\n" + marked + "\n"
    RESULTS.write_text(text, encoding="utf-8")


def show(name: str, text: str, write: bool) -> None:
    """Print a benchmark's section ``text``; with ``write`` (its ``--write``) also record it as ``name``."""
    print()
    print(text)
    if write:
        write_section(name, text)


def onnx_main(name: str, description: str, run: Callable[[int, int, tuple[int, ...]], list],
              section: Callable[[list, int, int, str, float], str]) -> None:
    """The command line of an ONNX speed benchmark: ``--rows``, ``--repeat``, ``--threads``,
    ``--write``; ``run(rows, repeat, threads)`` measures, ``section(results, rows, repeat,
    command, load)`` is its text, printed and, with ``--write``, put in the section ``name``."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--write", action="store_true", help="record the results in benchmarks/RESULTS.md")
    args = parser.parse_args()
    load_avg = os.getloadavg()[0]
    results = run(args.rows, args.repeat, tuple(args.threads))
    command = "python " + " ".join([f"benchmarks/{Path(sys.argv[0]).name}"] + sys.argv[1:])
    show(name, section(results, args.rows, args.repeat, command, load_avg), args.write)
