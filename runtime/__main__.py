"""``python -m scorecard.runtime MODEL.json DATA.csv [--explain K]``: score a CSV with no dependencies.

Writes the rows with ``score`` and ``prediction`` (and ``probability`` when the model has a
score-to-risk map; with ``--explain K`` the reason codes ``reason_1..reason_K``,
``points_1..points_K``) to standard output, reports unscorable rows on standard error; exit 2
with a one-line message on bad input.
"""
from __future__ import annotations

import sys

from .model import ModelError, load
from .score import RowError
from .table import open_csv, score_csv

USAGE = "usage: python -m scorecard.runtime MODEL.json DATA.csv [--explain K]"


def main(argv: list[str]) -> int:
    explain = 0
    if len(argv) == 4 and argv[2] == "--explain":
        if not (argv[3].isascii() and argv[3].isdigit()) or int(argv[3]) < 1:
            print(f"error: --explain: the number of reasons must be a whole number of at least 1, got {argv[3]!r}",
                  file=sys.stderr)
            return 2
        explain = int(argv[3])
        argv = argv[:2]
    if len(argv) != 2 or argv[0] in ("-h", "--help"):
        print(USAGE, file=sys.stderr)
        return 0 if argv and argv[0] in ("-h", "--help") else 2
    model_path, data_path = argv
    try:
        model = load(model_path)
        with open_csv(data_path) as fh:
            result = score_csv(model, fh, sys.stdout, source=data_path, explain=explain)
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
