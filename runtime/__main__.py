"""``python -m scorecard.runtime MODEL.json DATA.csv``: score a CSV with no dependencies.

Writes the rows with ``score`` and ``prediction`` (and ``probability`` when the model has a
score-to-risk map) to standard output, reports unscorable rows on standard error; exit 2
with a one-line message on bad input.
"""
from __future__ import annotations

import sys

from .model import ModelError, load
from .score import RowError
from .table import open_csv, score_csv

USAGE = "usage: python -m scorecard.runtime MODEL.json DATA.csv"


def main(argv: list[str]) -> int:
    if len(argv) != 2 or argv[0] in ("-h", "--help"):
        print(USAGE, file=sys.stderr)
        return 0 if argv and argv[0] in ("-h", "--help") else 2
    model_path, data_path = argv
    try:
        model = load(model_path)
        with open_csv(data_path) as fh:
            result = score_csv(model, fh, sys.stdout, source=data_path)
    except FileNotFoundError:
        print(f"error: {data_path}: no such file", file=sys.stderr)
        return 2
    except (ModelError, RowError, UnicodeDecodeError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if result.unscored:
        print(f"{result.unscored} of {result.rows} rows have no score (missing values)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
