"""The design each model family reads (paper Sections 3.1-3.3).

SLIM and PILM read a numeric input as cut-off conditions ``x >= t`` (``--numeric cuts``, the
default: at most ``--max-cuts`` per input, at quantiles, rounded to numbers a person writes
on a card; ``--cuts COL=...`` gives them; whole numbers within +-10 stay linear, see
:data:`SMALL`) or as the input itself, points times its value (``--numeric linear``, the
paper's Section 3.1 design), per input with ``--numeric-for``, which also reads a column of
numeric codes as levels (``COL=levels``: one condition ``COL == v`` per value, as a text
column, in every model family); a binary input enters as itself (one condition), a
categorical input one-hot (``==``).
Under the ``"unmet"`` missing policy (the default) a missing value meets none of these
conditions, and an input with missing cells in training is offered one more, "``COL``
unknown" (op ``missing``); as points times a value cannot score a missing one, such an
input never enters linear: a numeric one enters as cut-offs whatever ``--numeric`` or the
whole-number rule say (:func:`unmet_notes` tells the user), a binary one as the condition
``COL == 1``.
M-of-N rule tables (Section 3.3.1: predict positive when at least M of N rules hold) read
binary rules: thresholds of numeric inputs, a rule per category, a binary input as itself,
each with its negation, so a rule reads as the raw condition (``BareNuclei < 3``); the box
that makes the SLIM IP an M-of-N table (coefficients in {0, 1}, intercept in [-P, 0]) is set
in ``problem/constrained.py``. TILM (Section 3.3, Eq. 3.4) reads threshold rules ``x >= v``
without negations, since a negative coefficient on ``x >= v`` already scores ``x < v`` (up
to the intercept).
"""
from __future__ import annotations

import numpy as np

from ..options.config import TrainConfig
from .binarize import binarize, cut_columns, level_columns
from .design import Column, Design, build, has_unknown, input_columns, levels_of, offered_levels, unknown_column
from .prepare import LabeledData


def mofn_design(data: LabeledData, config: TrainConfig) -> Design:
    """The candidate rules of an M-of-N table (with negations unless ``config.negations`` is off)."""
    return binarize(data, cuts=config.cuts, max_thresholds=config.max_thresholds, negations=config.negations,
                    min_level_rows=config.min_level_rows, levels=level_inputs(config))


def tilm_design(data: LabeledData, config: TrainConfig) -> Design:
    """TILM's candidate rules: thresholds ``x >= v`` per numeric input (``config.cuts`` or
    automatic), a rule per category, a binary input as itself; no negations."""
    return binarize(data, cuts=config.cuts, max_thresholds=config.max_thresholds, negations=False,
                    min_level_rows=config.min_level_rows, levels=level_inputs(config))


def level_inputs(config: TrainConfig) -> frozenset[str]:
    """The numeric inputs read as codes, one condition per value (``--numeric-for COL=levels``)."""
    return frozenset(name for name, mode in config.numeric_by_input.items() if mode == "levels")


#: Under ``--numeric cuts`` a numeric input of whole numbers within +-SMALL (a score or a count:
#: breastcancer's 1-10 grades, mammo's density 1-4) stays linear, unless named in ``--cuts`` or
#: ``--numeric-for``: points times a value that small already read as a card row (the paper's
#: Section 3.1 models), and the benchmarks on datasets/ keep their designs.
SMALL = 10


def small_scale(values) -> bool:
    """Whole numbers within +-SMALL (missing values ignored)."""
    present = values[~np.isnan(values)]
    return bool(len(present)) and bool(np.all(present == np.round(present))) and float(np.abs(present).max()) <= SMALL


def cut_input(data: LabeledData, config: TrainConfig, name: str) -> bool:
    """True when numeric input ``name`` enters as cut-off conditions (see :data:`SMALL`); always
    when it can be missing under the ``"unmet"`` policy (:func:`may_be_missing`)."""
    if may_be_missing(data, name):
        return True
    return _asked_cuts(data, config, name)


def _asked_cuts(data: LabeledData, config: TrainConfig, name: str) -> bool:
    if name in config.numeric_by_input:
        return config.numeric_by_input[name] == "cuts"
    if config.numeric != "cuts":
        return False
    return name in config.cuts or not small_scale(data.frame[name].to_numpy(dtype=float))


def may_be_missing(data: LabeledData, name: str) -> bool:
    """True when input ``name`` had missing cells in the training data (all of it: a
    cross-validation fold keeps the whole file's counts) and they are kept (``"unmet"``)."""
    return data.policy == "unmet" and name in data.missing_counts


def unmet_notes(data: LabeledData, config: TrainConfig) -> list[str]:
    """One sentence per numeric input SLIM or PILM would have read linear but reads as cut-off
    conditions because it has missing cells under ``--missing unmet``, for the CLI to show."""
    if config.model not in ("slim", "pilm"):
        return []
    notes, levels = [], level_inputs(config)
    for inp in data.inputs:
        if (inp.type == "numeric" and may_be_missing(data, inp.name) and not _asked_cuts(data, config, inp.name)
                and inp.name not in levels):
            notes.append(f"column {inp.name!r} enters as cut-off conditions, not linear: it has "
                         f"{data.missing_counts[inp.name]} missing values and points times a value cannot score "
                         "a missing one (--missing impute or drop keeps it linear)")
    return notes


def data_notes(data: LabeledData, config: TrainConfig) -> list[str]:
    """Everything a user should hear about how the data was read and will enter the model:
    the reading's notes (typing, columns left out), :func:`unmet_notes` and :func:`level_notes`;
    the CLI prints them as ``note:`` lines, ``SLIMClassifier.fit`` as warnings."""
    return [*data.notes, *unmet_notes(data, config), *level_notes(data, config)]


def level_notes(data: LabeledData, config: TrainConfig) -> list[str]:
    """One sentence per categorical input (or numeric input read as levels) with levels too rare
    to be conditions of their own
    (:func:`~.design.offered_levels`), for the CLI to show: a user who knows a rare level
    matters can lower ``--min-level-rows``, or group the levels in the data."""
    notes, levels = [], level_inputs(config)
    for inp in data.inputs:
        if inp.type != "categorical" and inp.name not in levels:
            continue
        levels = levels_of(data, inp.name)
        rare = len(levels) - len(offered_levels(data, inp.name, config.min_level_rows))
        if rare:
            some = "all" if rare == len(levels) else f"{rare:,} of"
            n = config.min_level_rows
            held = (f"is held by fewer than {n} rows and is no condition of its own (its rows meet" if rare == 1 else
                    f"are held by fewer than {n} rows each and are no condition of their own (their rows meet")
            notes.append(f"column {inp.name!r}: {some} its {len(levels):,} levels {held} "
                         "none of the column's conditions); --min-level-rows sets the number, or group the "
                         "levels in the data")
    return notes


def _binary_condition(data: LabeledData, name: str) -> Column:
    """A binary input as one condition, ``COL == 1`` (``COL == 0`` when 1 never occurs)."""
    values = data.frame[name].to_numpy(dtype=float)
    on = 1 if (values == 1).any() else 0
    return Column(name, "==", on, name if on == 1 else f"{name} == 0")


def slim_design(data: LabeledData, config: TrainConfig) -> Design:
    """SLIM's and PILM's design: numeric inputs as cut-off conditions or linear columns
    (see the module docstring); binary and categorical inputs as ``encode`` reads them,
    an input with missing cells under ``"unmet"`` as conditions plus "``COL`` unknown"."""
    columns, levels = [], level_inputs(config)
    for inp in data.inputs:
        if inp.name in levels and inp.type != "categorical":
            columns += level_columns(data, inp.name, config.min_level_rows)
        elif inp.type == "numeric" and cut_input(data, config, inp.name):
            columns += cut_columns(data, inp.name, config.cuts.get(inp.name), config.max_cuts)
        elif inp.type == "binary" and may_be_missing(data, inp.name):
            columns.append(_binary_condition(data, inp.name))
        else:
            columns += input_columns(data, inp.name, config.min_level_rows)
        if has_unknown(data, inp.name):
            columns.append(unknown_column(inp.name))
    return build(data, columns)


def design_for(data: LabeledData, config: TrainConfig) -> Design:
    """The design a model family reads: SLIM and PILM the inputs (numeric ones as cut-off
    conditions by default), M-of-N and TILM binary rules."""
    if config.model == "mofn":
        return mofn_design(data, config)
    if config.model == "tilm":
        return tilm_design(data, config)
    return slim_design(data, config)
