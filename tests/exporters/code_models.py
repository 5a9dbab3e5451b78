"""Hand-built models over the real datasets, for the code-export tests.

Built with the runtime dataclasses (no trainer needed), each shaped like what the trainer
produces for one kind of data: integer linear (breastcancer), categorical with missing values
(mushroom_raw), real-valued with float points (heart, spambase), M-of-N, an imputing model and
one under the "unmet" policy.
"""
from __future__ import annotations

import csv
from pathlib import Path

from scorecard.runtime import GoldenRow, Input, Model, Target, Term, predict, score

DATASETS = Path("/work/shared/datasets")


def read_rows(name: str) -> list[dict[str, str]]:
    """A dataset's rows as the csv module reads them (every value a string)."""
    with open(DATASETS / name, newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def case_rows(model: Model, name: str) -> list[dict[str, str]]:
    """Every row of a dataset; of a wide one (spambase's 58 columns) only the target, the
    model's inputs and two unused columns, to keep the engines' loading quick."""
    rows = read_rows(name)
    if len(rows[0]) <= 25:
        return rows
    keep = [model.target.name] + [i.name for i in model.inputs]
    keep += [c for c in rows[0] if c not in keep][:2]
    return [{c: r[c] for c in keep} for r in rows]


def num(name: str) -> Input:
    return Input(name, "numeric")


def cat(name: str, categories: tuple[str, ...] | None = None) -> Input:
    return Input(name, "categorical", categories)


def breastcancer_model() -> Model:
    """The paper's 2-feature breastcancer system: 2 x UniformityOfCellSize + BareNuclei > 8."""
    return Model(
        kind="linear", target=Target("Benign", 1),
        inputs=(num("UniformityOfCellSize"), num("BareNuclei")),
        terms=(Term("UniformityOfCellSize", "linear", None, 2, "UniformityOfCellSize"),
               Term("BareNuclei", "linear", None, 1, "BareNuclei")),
        intercept=-8)


def mushroom_model(missing: str | dict = "null") -> Model:
    """Categorical terms, ``==`` and ``in``, on mushroom_raw (stalk_root is '' in 2480 rows)."""
    return Model(
        kind="linear", target=Target("poisonous", 1),
        inputs=(cat("odor"), cat("spore_print_color"), cat("stalk_root"), cat("gill_size")),
        terms=(Term("odor", "in", ("foul", "pungent", "creosote", "fishy", "spicy", "musty"), 6, "odor is bad"),
               Term("odor", "==", "none", -2, "odor = none"),
               Term("spore_print_color", "==", "green", 5, "spore print green"),
               Term("stalk_root", "in", ("club", "rooted"), -1, "stalk root club or rooted"),
               Term("gill_size", "==", "narrow", 2, "gill size narrow")),
        intercept=-1, missing=missing)


def heart_model() -> Model:
    """Real-valued inputs, float points and thresholds (scores are floats)."""
    return Model(
        kind="linear", target=Target("Disease", 1),
        inputs=(num("ExerciseSTDepression"), num("NumVesselsByFlourosopy"),
                num("MaxExerciseHRTargetRatio"), Input("Male", "binary"), num("ExerciseAngina")),
        terms=(Term("ExerciseSTDepression", "linear", None, 0.7, "0.7 x ST depression"),
               Term("NumVesselsByFlourosopy", "linear", None, 1.3, "1.3 x vessels"),
               Term("MaxExerciseHRTargetRatio", "<", 0.35, 0.1, "HR ratio < 0.35"),
               Term("MaxExerciseHRTargetRatio", ">=", 0.6, -0.2, "HR ratio >= 0.6"),
               Term("MaxExerciseHRTargetRatio", "linear", None, -1.7, "-1.7 x HR ratio"),
               Term("Male", "==", 1, 0.3, "male"),
               Term("ExerciseAngina", "linear", None, 1, "exercise angina")),
        intercept=-1.1)


SPAM_TERMS = (("WordFreqRemove", 2.7), ("WordFreqFree", 0.1), ("CharFreqDollarSign", 3.3),
              ("WordFreqHP", -1.9), ("CapitalRunLengthAverage", 0.01), ("WordFreqGeorge", -0.3),
              ("CharFreqExcalamationMark", 0.7), ("WordFreqOur", 0.2))


def spambase_model() -> Model:
    """Many float terms on real-valued frequencies: float sums that must agree to the bit."""
    return Model(
        kind="linear", target=Target("Spam", 1),
        inputs=tuple(num(n) for n, _ in SPAM_TERMS),
        terms=tuple(Term(n, "linear", None, p, f"{p} x {n}") for n, p in SPAM_TERMS)
        + (Term("CapitalRunLengthAverage", ">=", 3.5, 0.45, "long capital runs"),),
        intercept=-0.6)


def mofn_model() -> Model:
    """An M-of-N rule table on breastcancer: malignant (Benign = 0) when 2 of 4 rules hold."""
    return Model(
        kind="m_of_n", target=Target("Benign", 0),
        inputs=(num("ClumpThickness"), num("UniformityOfCellSize"), num("BareNuclei"), num("NormalNucleoli")),
        terms=(Term("ClumpThickness", ">=", 7, 1, "ClumpThickness >= 7"),
               Term("UniformityOfCellSize", ">=", 4, 1, "UniformityOfCellSize >= 4"),
               Term("BareNuclei", ">=", 5, 1, "BareNuclei >= 5"),
               Term("NormalNucleoli", "<", 3, 1, "NormalNucleoli < 3")),
        intercept=-1)


def imputing_model() -> Model:
    """Missing stalk_root replaced by 'bulbous' (categorical impute)."""
    return mushroom_model(missing={"impute": {"stalk_root": "bulbous"}})


def unmet_model() -> Model:
    """Policy "unmet" on mushroom_raw: a missing stalk_root meets no condition but its
    "unknown" row (2480 rows have it blank), so every row gets a score."""
    base = mushroom_model()
    return Model(kind=base.kind, target=base.target, inputs=base.inputs,
                 terms=base.terms + (Term("stalk_root", "missing", None, 3, "stalk root unknown"),
                                     Term("stalk_root", "==", "bulbous", 1, "stalk root bulbous")),
                 intercept=base.intercept, missing="unmet")


CASES = {
    "breastcancer": (breastcancer_model, "breastcancer.csv"),
    "mushroom": (mushroom_model, "mushroom_raw.csv"),
    "heart": (heart_model, "heart.csv"),
    "spambase": (spambase_model, "spambase.csv"),
    "mofn": (mofn_model, "breastcancer.csv"),
    "impute": (imputing_model, "mushroom_raw.csv"),
    "unmet": (unmet_model, "mushroom_raw.csv"),
}


def with_golden(model: Model, rows: list[dict]) -> Model:
    """``model`` carrying ``rows`` as golden rows, scored by the runtime."""
    golden = tuple(GoldenRow(dict(row), score(model, row), predict(model, row)) for row in rows)
    return Model(kind=model.kind, target=model.target, inputs=model.inputs, terms=model.terms,
                 intercept=model.intercept, missing=model.missing, golden=golden)


def long_model(n: int, missing: str = "null") -> Model:
    """``n`` inputs, two terms each (a cut-off and a linear term), float points: only the
    model's left-to-right order gives the runtime's doubles (the SQL
    exports' long sums, split into stages where the dialect has LATERAL)."""
    inputs = tuple(Input(f"x{k}", "numeric") for k in range(n))
    terms = []
    for k in range(n):
        terms += [Term(f"x{k}", ">=", k % 5, 0.1 * (k % 7) - 0.3, f"x{k} >= {k % 5}"),
                  Term(f"x{k}", "linear", None, 0.01 * (k % 11) - 0.05, f"x{k}")]
    return Model(kind="linear", target=Target("y", 1), inputs=inputs, terms=tuple(terms), intercept=0.7,
                 missing=missing, probability={"method": "logistic", "scale": 1.0})
