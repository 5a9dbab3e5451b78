"""The exporters still write exactly the committed golden files (tests/exporters/golden/)."""
from __future__ import annotations

import pytest
from code_golden import FOLDER, renderings

RENDERED = renderings()


@pytest.mark.parametrize("file_name", sorted(RENDERED))
def test_export_matches_its_golden_file(file_name):
    path = FOLDER / file_name
    assert path.exists(), f"{path} is missing: run python tests/exporters/code_golden.py"
    assert RENDERED[file_name] == path.read_text(encoding="utf-8"), (
        f"{file_name} changed; if intended, run python tests/exporters/code_golden.py and review the diff")


def test_no_stale_golden_files():
    assert sorted(p.name for p in FOLDER.iterdir()) == sorted(RENDERED)
