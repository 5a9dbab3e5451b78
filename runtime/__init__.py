"""scorecard.runtime: the model type, loading and scoring, standard library only.

This folder is the leaf of the project: it imports nothing outside the standard library
and only relative modules, so it still works when copied alone into another project.
"""
from .errors import (BadInputError, ConfigError, DataError, ExportError, InfeasibleError, Interrupted, ModelError,
                     NoModelInTimeError, RowError, ScorecardError, UsageError)
from .explain import Reason, explain
from .model import GoldenRow, Input, InputMeta, Meta, Model, Target, Term, Training, dump, dumps, load, loads
from .risk import risk
from .score import decide, format_number, is_missing, predict, score
from .table import ScoredTable, score_csv

__all__ = [
    "GoldenRow", "Input", "InputMeta", "Meta", "Model", "Target", "Term", "Training",
    "dump", "dumps", "load", "loads", "decide", "format_number", "is_missing",
    "predict", "risk", "score", "ScoredTable", "score_csv", "explain", "Reason",
    "ScorecardError", "BadInputError", "UsageError", "ConfigError", "DataError", "ModelError", "RowError",
    "ExportError", "InfeasibleError", "NoModelInTimeError", "Interrupted",
]
