"""Hand-built models shaped like the paper's scorecards, shared by the paper-export tests.

Each is built from the runtime dataclasses (so the model checks run) and carries golden
rows scored by the runtime itself.
"""
from __future__ import annotations

from scorecard.runtime import (
    GoldenRow,
    Input,
    InputMeta,
    Meta,
    Model,
    Target,
    Term,
    Training,
    predict,
    score,
)

HOSTILE = '</script><script>alert("x")</script> & <!-- é ü 猫 🙂 % $ # _ { } ~ ^ \\ \'q\' a--b <<c>> ,,d [e]'


def _with_golden(model: Model, rows: list[dict]) -> Model:
    golden = tuple(GoldenRow(row, score(model, row), predict(model, row)) for row in rows)
    return Model(kind=model.kind, target=model.target, inputs=model.inputs, terms=model.terms,
                 intercept=model.intercept, missing=model.missing, probability=model.probability,
                 training=model.training, golden=golden, meta=model.meta)


def breastcancer() -> Model:
    """Figure SLIMExample: 4 x UniformityOfCellSize + 2 x BareNuclei, predict benign if > 17."""
    model = Model(
        kind="linear", target=Target("Benign", 1),
        inputs=(Input("UniformityOfCellSize", "numeric"), Input("BareNuclei", "numeric")),
        terms=(Term("UniformityOfCellSize", "linear", None, 4, ""), Term("BareNuclei", "linear", None, 2, "")),
        intercept=-17,
        training=Training(solver="cbc", status="optimal", objective=0.0412, lower_bound=0.0412, gap=0.0,
                          seconds=3.25, train_error=0.034, n_rows=683,
                          params={"c0": 0.025, "coef_min": -10, "coef_max": 10}))
    return _with_golden(model, [{"UniformityOfCellSize": 3, "BareNuclei": 4},
                                {"UniformityOfCellSize": 2, "BareNuclei": 4}])


def mushroom() -> Model:
    """Figure MushroomSLIM: categorical rows, three odor terms merge into one ``in`` row."""
    cats = {"spore_print_color": ("green", "brown", "white"), "stalk_surface_above_ring": ("grooves", "smooth"),
            "population": ("clustered", "several"), "gill_size": ("broad", "narrow"),
            "odor": ("none", "almond", "anise", "foul")}
    model = Model(
        kind="linear", target=Target("class", "poisonous"),
        inputs=tuple(Input(name, "categorical", values) for name, values in cats.items()),
        terms=(Term("spore_print_color", "==", "green", 4, ""),
               Term("odor", "==", "none", -4, ""),
               Term("stalk_surface_above_ring", "==", "grooves", 2, ""),
               Term("odor", "in", ("almond", "anise"), -4, ""),
               Term("population", "==", "clustered", 2, ""),
               Term("gill_size", "==", "broad", -2, "")),
        intercept=-3)
    return _with_golden(model, [
        {"spore_print_color": "green", "stalk_surface_above_ring": "grooves", "population": "several",
         "gill_size": "narrow", "odor": "foul"},
        {"spore_print_color": "white", "stalk_surface_above_ring": "grooves", "population": "clustered",
         "gill_size": "broad", "odor": "anise"}])


MOFN_INPUTS = ("UniformityOfCellSize", "UniformityOfCellShape", "MarginalAdhesion", "SingleEpithelialCellSize",
               "BareNuclei", "BlandChromatin", "NormalNucleoli", "Mitoses")


def m_of_n() -> Model:
    """Figure MNRuleExample: at least 5 of 8 rules ``feature >= 3``."""
    model = Model(
        kind="m_of_n", target=Target("Benign", 1),
        inputs=tuple(Input(name, "numeric") for name in MOFN_INPUTS),
        terms=tuple(Term(name, ">=", 3, 1, "") for name in MOFN_INPUTS),
        intercept=-4.5)
    return _with_golden(model, [dict(zip(MOFN_INPUTS, (3, 3, 3, 3, 3, 1, 1, 1))),
                                dict(zip(MOFN_INPUTS, (3, 3, 3, 3, 1, 1, 1, 1)))])


def sleep_apnea() -> Model:
    """Table SleepApneaModels: threshold and binary rows with a risk table (one row per score)."""
    binaries = ("snoring", "hypertension", "bronchitis", "cataplexy", "dozes off while watching TV", "retired",
                "female")
    model = Model(
        kind="linear", target=Target("OSA or UARS", "yes"),
        inputs=(Input("age", "numeric"), Input("body mass index", "numeric"))
        + tuple(Input(name, "binary") for name in binaries),
        terms=(Term("age", ">=", 60, 18, ""), Term("body mass index", ">=", 25, 10, ""),
               Term("body mass index", ">=", 40, 10, ""), Term("snoring", "==", 1, 8, ""),
               Term("hypertension", "linear", None, 6, ""), Term("bronchitis", "==", 1, 4, ""),
               Term("cataplexy", "==", 1, 2, ""), Term("dozes off while watching TV", "==", 1, 2, ""),
               Term("retired", "==", 1, 2, ""), Term("female", "==", 1, -8, "")),
        intercept=-19,
        missing={"impute": {"body mass index": 27.5}},
        probability={"method": "table", "table": [{"score": s, "risk": round(1 / (1 + 2.718281828 ** (-(s - 19) / 6)), 4)}
                                                  for s in range(0, 61, 4)]})
    return _with_golden(model, [{"age": 65, "body mass index": 30, "snoring": 1, "hypertension": 0,
                                 "bronchitis": 0, "cataplexy": 0, "dozes off while watching TV": 1,
                                 "retired": 1, "female": 1},
                                {"age": 40, "snoring": 1, "hypertension": 1, "bronchitis": 0, "cataplexy": 0,
                                 "dozes off while watching TV": 0, "retired": 0, "female": 0}])


def long_card(n: int = 30) -> Model:
    """A tall card (``n`` threshold rows with long names) that must still fit one page."""
    names = tuple(f"laboratory_measurement_{k:02d}_serum_level" for k in range(n))
    model = Model(
        kind="linear", target=Target("readmitted", 1),
        inputs=tuple(Input(name, "numeric") for name in names),
        terms=tuple(Term(name, ">=" if k % 2 else "<", 10 + k, (k % 7) - 3 or 5, "") for k, name in enumerate(names)),
        intercept=-4)
    return _with_golden(model, [{name: 10 + k for k, name in enumerate(names)}])


def hostile() -> Model:
    """Names full of HTML, LaTeX and script specials, accents, CJK and an emoji."""
    model = Model(
        kind="linear", target=Target(f"out{HOSTILE}", f"pos{HOSTILE}"),
        inputs=(Input(f"num{HOSTILE}", "numeric"), Input(f"cat{HOSTILE}", "categorical", (f"v{HOSTILE}", "b"))),
        terms=(Term(f"num{HOSTILE}", ">=", 2.5, 3, ""), Term(f"cat{HOSTILE}", "==", f"v{HOSTILE}", -1, ""),
               Term(f"num{HOSTILE}", "linear", None, 2, f"lab{HOSTILE}")),
        intercept=-4,
        missing={"impute": {f"num{HOSTILE}": 1}})
    return _with_golden(model, [{f"num{HOSTILE}": 3, f"cat{HOSTILE}": f"v{HOSTILE}"},
                                {f"num{HOSTILE}": 1, f"cat{HOSTILE}": "b"}])


def labelled() -> Model:
    """The breastcancer card with metadata (issue 14 item 1): a title, a description, class
    names, labels with units and a description; one label hostile (a comment closer, a line
    break, HTML and LaTeX specials)."""
    meta = Meta(title="Breast cancer: benign or malignant?",
                description="Fine-needle aspirates of breast masses, 683 patients; flags the likely benign.",
                negative="malignant", positive="benign",
                inputs=(("BareNuclei", InputMeta(label="Bare nuclei */ -- \n<b>&%", unit="grade 1-10",
                                                 description="nuclei without cytoplasm, 1 (none) to 10 (most)")),
                        ("UniformityOfCellSize", InputMeta(label="Uniformity of cell size", unit="grade 1-10"))))
    base = breastcancer()
    return Model(kind=base.kind, target=base.target, inputs=base.inputs, terms=base.terms, intercept=base.intercept,
                 training=base.training, golden=base.golden, meta=meta,
                 probability={"method": "table", "table": [{"score": s, "risk": round(min(max(
                     1 / (1 + 2.718281828 ** (-(s - 17) / 3)), 1e-6), 1 - 1e-6), 6)} for s in range(6, 61)]})


def diabetes_unmet() -> Model:
    """Policy "unmet": thresholds, a category, an ``in`` set and "unknown" rows; golden rows
    with values missing every way JSON can carry (absent, null, '', blanks)."""
    model = Model(
        kind="linear", target=Target("diabetes", "pos"),
        inputs=(Input("glu", "numeric"), Input("bmi class", "categorical", ("normal", "over", "obese")),
                Input("pregnant", "binary"), Input("age", "numeric")),
        terms=(Term("glu", ">=", 140, 4, ""), Term("glu", "<", 90, -2, ""), Term("glu", "missing", None, 1, ""),
               Term("bmi class", "==", "obese", 3, ""), Term("bmi class", "in", ("normal", "under"), -1, ""),
               Term("bmi class", "missing", None, 1, ""), Term("pregnant", "==", 1, 2, ""),
               Term("age", ">=", 50, 2, "")),
        intercept=-3, missing="unmet")
    return _with_golden(model, [
        {"glu": 150, "bmi class": "obese", "pregnant": 1, "age": 60},
        {"glu": None, "bmi class": "obese", "pregnant": 0, "age": 30},
        {"glu": "", "bmi class": "  ", "pregnant": "", "age": 55},
        {"glu": 80, "bmi class": "", "age": None},
        {"bmi class": "normal", "pregnant": 1},
        {"glu": "  ", "bmi class": None, "pregnant": None, "age": " "}])


def glucose_linear_unmet() -> Model:
    """Policy "unmet" with a linear term: a missing glucose gives no score, a missing category 0."""
    model = Model(
        kind="linear", target=Target("diabetes", 1),
        inputs=(Input("glu", "numeric"), Input("bmi class", "categorical")),
        terms=(Term("glu", "linear", None, 0.05, ""), Term("bmi class", "==", "obese", 2, ""),
               Term("bmi class", "missing", None, 1, "")),
        intercept=-7, missing="unmet")
    return _with_golden(model, [{"glu": 120, "bmi class": "obese"}, {"glu": 120, "bmi class": ""},
                                {"glu": None, "bmi class": "obese"}, {"glu": "", "bmi class": "obese"},
                                {"bmi class": "over"}])


ALL = {"breastcancer": breastcancer, "mushroom": mushroom, "m_of_n": m_of_n, "sleep_apnea": sleep_apnea,
       "long_card": long_card, "hostile": hostile, "diabetes_unmet": diabetes_unmet,
       "glucose_linear_unmet": glucose_linear_unmet, "labelled": labelled}
