"""The real engines the paper exports are checked in: headless Chromium, pdflatex, poppler.

A missing engine skips the test that needs it (with the package to install), never fakes it.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import unicodedata
import urllib.parse
from html.parser import HTMLParser
from pathlib import Path

import pytest

CHROMIUM_FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync",
                  "--no-pdf-header-footer", "--virtual-time-budget=3000")


def need(tool: str, package: str) -> str:
    path = shutil.which(tool)
    if path is None:
        message = f"{tool} is not installed (apt-get install {package}; make test installs it)"
        if os.environ.get("CI"):
            pytest.fail(message)  # CI installs every engine: a missing one must not pass as a skip
        pytest.skip(message)
    return path


def chromium(html: Path, pdf: Path, rows: list[dict], profile: Path) -> str:
    """Print ``html`` to ``pdf`` and return its DOM after scoring ``rows`` (``#rows=`` address)."""
    exe = need("chromium", "chromium")
    url = html.resolve().as_uri() + "#rows=" + urllib.parse.quote(json.dumps(rows))
    done = subprocess.run([exe, *CHROMIUM_FLAGS, f"--user-data-dir={profile}", f"--print-to-pdf={pdf}",
                           "--dump-dom", url], capture_output=True, text=True, timeout=120, check=True)
    return done.stdout


def pdflatex(tex: Path) -> Path:
    """Compile ``tex`` in its folder; fail with the log's error lines when it does not compile."""
    exe = need("pdflatex", "texlive-latex-recommended")
    done = subprocess.run([exe, "-interaction=nonstopmode", "-halt-on-error", tex.name], cwd=tex.parent,
                          capture_output=True, text=True, timeout=120)
    if done.returncode != 0:
        errors = [line for line in done.stdout.splitlines() if line.startswith("!")]
        pytest.fail(f"pdflatex failed on {tex.name}: {errors or done.stdout[-2000:]}")
    return tex.with_suffix(".pdf")


def pdf_info(pdf: Path) -> dict[str, str]:
    out = subprocess.run([need("pdfinfo", "poppler-utils"), str(pdf)], capture_output=True, text=True,
                         check=True).stdout
    return {k.strip(): v.strip() for k, _, v in (line.partition(":") for line in out.splitlines())}


def pdf_text(pdf: Path) -> str:
    """The PDF's text in drawing order (``-raw``): the default reading order joins a line
    that ends in a hyphen to the next and drops the hyphen ("<!--" wrapped after "<!-")."""
    return subprocess.run([need("pdftotext", "poppler-utils"), "-raw", str(pdf), "-"], capture_output=True,
                          text=True, check=True).stdout


def squash(text: str) -> str:
    """Text with ligatures undone and all whitespace removed, so line breaks do not matter."""
    return "".join(unicodedata.normalize("NFKC", text).split())


VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class Elements(HTMLParser):
    """Counts start tags and keeps the text of elements by id."""

    def __init__(self, html: str) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict]] = []
        self.text: dict[str, str] = {}
        self._open: list[str] = []
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list) -> None:
        attributes = dict(attrs)
        self.tags.append((tag, attributes))
        if tag not in VOID:
            self._open.append(attributes.get("id") or "")

    def handle_endtag(self, tag: str) -> None:
        if self._open:
            self._open.pop()

    def handle_data(self, data: str) -> None:
        if self._open and self._open[-1]:
            self.text[self._open[-1]] = self.text.get(self._open[-1], "") + data

    def by_id(self, ident: str) -> dict:
        return next(attrs for tag, attrs in self.tags if attrs.get("id") == ident)
