"""Shared fixtures: running the CLI in-process, writing small files, the bundled data.

``cli`` runs ``scorecard.cli.main`` on an argument list and returns its exit code and
what it printed, so the many error-path tests cost milliseconds instead of a Python start.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest
from testdata import EXAMPLES


@dataclass(frozen=True)
class Run:
    code: int
    out: str
    err: str


@pytest.fixture
def cli(capsys):
    """``cli("train", "data.csv", ...)`` -> Run(code, stdout, stderr)."""
    from scorecard.cli import main

    def run(*args: object) -> Run:
        capsys.readouterr()
        code = main([str(a) for a in args])
        captured = capsys.readouterr()
        return Run(code, captured.out, captured.err)

    return run


@pytest.fixture
def write(tmp_path):
    """``write("name.csv", text)`` -> the path of a new file holding ``text``."""

    def make(name: str, text: str) -> Path:
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        return path

    return make


@pytest.fixture
def breastcancer() -> Path:
    return EXAMPLES / "breastcancer.csv"
