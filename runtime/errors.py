"""Every error a user can cause, in one hierarchy (standard library only).

Each class carries the exit code the command line gives it (docs/contract.md, "Exit codes"),
so the CLI maps errors to exit codes in one place, by type, never by matching message text:

- :class:`BadInputError` (exit 2): a file, column, value, option or model file that cannot
  be used; the message names it and says how to fix it.
- :class:`InfeasibleError` (exit 3): no model satisfies the constraints;
  :class:`NoModelInTimeError`, its subclass, when the time limit ended the search before any
  model satisfying them was found.
- :class:`Interrupted` (exit 130, as a shell reports SIGINT): Ctrl-C; ``train`` has still
  written the best model found so far when the message says so.
"""
from __future__ import annotations


class ScorecardError(Exception):
    """Base of every error scorecard raises on purpose; ``exit_code`` is the CLI's."""

    exit_code = 2


class BadInputError(ScorecardError, ValueError):
    """Bad input or usage (exit 2): the message names the file, column, option or value."""


class UsageError(BadInputError):
    """A command line that cannot work (a missing or malformed option)."""


class ConfigError(BadInputError):
    """A training option (flag, TOML key or estimator parameter) that is not valid."""


class DataError(BadInputError):
    """Training or scoring data that cannot be used as it is."""


class ModelError(BadInputError):
    """A model file (or a model built in code) breaks the format; the message names the field."""


class RowError(BadInputError):
    """A row holds a value the model cannot read (e.g. text in a numeric input)."""


class ExportError(BadInputError):
    """A model that a format cannot express, or an option that does not apply to the format."""


class InfeasibleError(ScorecardError, RuntimeError):
    """No model satisfies the constraints (exit 3)."""

    exit_code = 3


class NoModelInTimeError(InfeasibleError):
    """The time limit ended the search before any model meeting the constraints was found
    (exit 3): more time, or looser constraints, may give one."""


class Interrupted(ScorecardError):
    """Ctrl-C ended the command (exit 130); the message says what was written."""

    exit_code = 130
