"""benchmarks/RESULTS.md: each benchmark owns one section, between its own markers
(``<!-- NAME:start -->`` ... ``<!-- NAME:end -->``), and rewrites only that."""
from __future__ import annotations

from pathlib import Path

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
