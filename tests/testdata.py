"""Where the test data lives: the bundled examples and the paper's UCI datasets (datasets/).

A plain module (not conftest.py, whose name several folders share) so tests can import it.
"""
from __future__ import annotations

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
SHARED = Path(os.environ.get("SCORECARD_DATASETS", ROOT / "datasets"))


def shared_datasets() -> list[Path]:
    """The shared UCI datasets (outcome in the first column), when this machine has them."""
    return sorted(SHARED.glob("*.csv")) if SHARED.is_dir() else []
