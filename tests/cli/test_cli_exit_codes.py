"""The CLI maps errors to exit codes by type (runtime/errors.py), in one place."""
from __future__ import annotations

import pytest
import scorecard.runtime
from scorecard.runtime import errors


@pytest.mark.parametrize("cls, code", [
    (errors.UsageError, 2), (errors.ConfigError, 2), (errors.DataError, 2), (errors.ModelError, 2),
    (errors.RowError, 2), (errors.ExportError, 2), (errors.BadInputError, 2),
    (errors.InfeasibleError, 3), (errors.NoModelInTimeError, 3),
])
def test_each_error_class_gives_its_exit_code_and_one_line(cli, monkeypatch, cls, code):
    def fail(path):
        raise cls(f"{path}: went\n  wrong")

    monkeypatch.setattr(scorecard.runtime, "load", fail)
    run = cli("show", "m.json")
    assert run.code == code == cls.exit_code
    assert run.err == "error: m.json: went wrong\n"
