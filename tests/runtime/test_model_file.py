"""runtime.model: the model file round-trips exactly and refuses bad files naming the field."""
from __future__ import annotations

import json
import math
from dataclasses import replace

import pytest
from scorecard.runtime import (
    GoldenRow,
    Input,
    Model,
    ModelError,
    Target,
    Term,
    Training,
    dumps,
    load,
    loads,
)
from scorecard.runtime.model import dump


def sample() -> Model:
    return Model(
        kind="linear", target=Target("Benign", 1),
        inputs=(Input("Size", "numeric"), Input("Shape", "categorical", ("oval", "round")), Input("Flag", "binary")),
        terms=(Term("Size", "linear", None, 2, "Size"), Term("Shape", "==", "round", -3, "Shape is round"),
               Term("Flag", ">=", 1, 1.5, "Flag")),
        intercept=-8, missing={"impute": {"Shape": "oval"}},
        training=Training("cbc", "optimal", 0.031, 0.031, 0.0, 1.25, 0.03, 683, {"c0": 0.01}),
        golden=(GoldenRow({"Size": 5, "Shape": "round", "Flag": 0}, -1, 0),))


def test_dump_and_load_round_trip_exactly(tmp_path):
    path = tmp_path / "m.json"
    dump(sample(), str(path))
    again = load(str(path))
    assert again == sample()
    assert dumps(again) == path.read_text(encoding="utf-8")
    assert json.loads(path.read_text())["format"] == "scorecard-model"


def test_a_target_of_the_positive_against_the_rest_round_trips_and_an_older_file_reads_as_two_classes():
    rest = replace(sample(), target=Target("status", 1, rest=True))
    d = json.loads(dumps(rest))
    assert d["target"] == {"name": "status", "positive": 1, "rest": True} and loads(dumps(rest)) == rest
    assert "rest" not in json.loads(dumps(sample()))["target"]  # a file of two classes is written as before
    assert loads(dumps(sample())).target.rest is False


@pytest.mark.parametrize("edit, field", [
    (lambda d: d.pop("intercept"), "intercept: is missing"),
    (lambda d: d["terms"][0].update(points="2"), "terms[0].points: has the wrong type"),
    (lambda d: d["terms"][1].update(op="!="), "terms[1].op: must be one of"),
    (lambda d: d["terms"][0].update(input="Age"), "terms[0].input: 'Age' is not one of the model's inputs"),
    (lambda d: d["inputs"][0].update(type="float"), "inputs[0].type: must be one of"),
    (lambda d: d.update(kind="tree"), "kind: must be one of"),
    (lambda d: d.update(missing="zero"), "missing: must be \"null\", \"unmet\" or"),
    (lambda d: d["terms"][1].update(op="missing", value=None), "terms[1].op: 'missing' (the input is unknown) needs"),
    (lambda d: d.update(missing="unmet") or d["terms"][1].update(op="missing", value="round"),
     "terms[1].value: must be null for a 'missing' term"),
    (lambda d: d["golden"][0].update(prediction=2), "golden[0].prediction: must be 0, 1 or null"),
    (lambda d: d.update(version=3), "version: this scorecard reads versions 1, 2, the file is version 3"),
    (lambda d: d.update(format="other"), "format: must be 'scorecard-model'"),
    (lambda d: d["target"].update(rest="yes"), "target.rest: has the wrong type"),
    # issue 12, item 20: no command can use a name with a NUL character (SQL stores none)
    (lambda d: d["inputs"][0].update(name="a\x00ge") or d["terms"][0].update(input="a\x00ge"),
     "inputs[0].name: 'a\\x00ge' holds a NUL character (U+0000)"),
    (lambda d: d["inputs"][1].update(categories=["oval", "x\x00"]), "inputs[1].categories: 'x\\x00' holds a NUL"),
    (lambda d: d["terms"][1].update(value="r\x00und"), "terms[1].value: 'r\\x00und' holds a NUL character"),
])
def test_strict_validation_names_the_field(edit, field):
    d = json.loads(dumps(sample()))
    edit(d)
    with pytest.raises(ModelError) as err:
        loads(json.dumps(d))
    assert field in str(err.value)


def test_corrupt_and_missing_files_name_the_file(tmp_path):
    path = tmp_path / "m.json"
    path.write_text(dumps(sample())[:50], encoding="utf-8")
    with pytest.raises(ModelError, match=r"m.json: not valid JSON \(line"):
        load(str(path))
    with pytest.raises(ModelError, match="no such model file"):
        load(str(tmp_path / "none.json"))


def test_a_corrupt_model_file_is_exit_2_with_one_line(cli, tmp_path):
    path = tmp_path / "m.json"
    path.write_text('{"format": "scorecard-model", "version": 1, "kind": "linear"', encoding="utf-8")
    for args in (("show", path), ("predict", path, tmp_path / "d.csv", "-o", tmp_path / "o.csv")):
        run = cli(*args)
        assert run.code == 2 and run.err.startswith("error: ") and run.err.count("\n") == 1
        assert "Traceback" not in run.err
    assert not (tmp_path / "o.csv").exists()


def unmet_sample() -> Model:
    return Model(
        kind="linear", target=Target("y", 1), inputs=(Input("glu", "numeric"), Input("c", "categorical")),
        terms=(Term("glu", ">=", 140, 3, ""), Term("glu", "missing", None, 1, "glu unknown"),
               Term("c", "in", ("a", "b"), -2, "")),
        intercept=-1, missing="unmet", golden=(GoldenRow({"glu": None, "c": " "}, 1, 0),))


def test_unmet_policy_and_unknown_rows_round_trip():
    text = dumps(unmet_sample())
    d = json.loads(text)
    assert d["missing"] == "unmet" and d["version"] == 2
    assert d["terms"][1] == {"input": "glu", "op": "missing", "value": None, "points": 1, "label": "glu unknown"}
    assert loads(text) == unmet_sample() and dumps(loads(text)) == text


def test_a_version_1_file_reads_in_the_points_total_meaning_of_score():
    """Version 1's score was intercept + points: its golden scores and risk table lose the
    intercept on read, a logistic map gains center = -intercept, and every number a user
    sees (score, prediction, risk) is what version 2 gives for the same card."""
    from scorecard.runtime import predict, risk, score

    v2 = replace(sample(), golden=(GoldenRow({"Size": 5, "Shape": "round", "Flag": 1}, 8.5, 1),),
                 probability={"method": "table", "table": [{"score": 0, "risk": 0.2}, {"score": 9, "risk": 0.7}]})
    d = json.loads(dumps(v2))
    d["version"] = 1
    d["golden"][0]["score"] = 8.5 - 8
    d["probability"]["table"] = [{"score": -8, "risk": 0.2}, {"score": 1, "risk": 0.7}]
    old = loads(json.dumps(d))
    row = old.golden[0].row
    assert old == v2 and score(old, row) == 8.5 and predict(old, row) == 1 and risk(old, 8.5) == 0.2
    d["probability"] = {"method": "logistic", "scale": 0.5}
    logistic = loads(json.dumps(d))
    assert logistic.probability == {"method": "logistic", "scale": 0.5, "center": 8}
    assert risk(logistic, 8) == 0.5 and json.loads(dumps(logistic))["version"] == 2


def test_an_old_file_without_the_new_policy_reads_unchanged():
    d = json.loads(dumps(sample()))
    d.pop("missing")  # files written before "missing" was a field
    assert loads(json.dumps(d)).missing == "null"
    assert loads(dumps(sample())) == sample()


def _with(field: str, raw: str) -> str:
    """The sample model's JSON with ``field`` (``terms.0.points``) set to the raw JSON ``raw``."""
    d = json.loads(dumps(sample()))
    *path, last = field.split(".")
    node = d
    for key in path:
        node = node[int(key)] if key.isdigit() else node[key]
    node[int(last) if last.isdigit() else last] = "@@"
    return json.dumps(d).replace('"@@"', raw)


@pytest.mark.parametrize("field, raw, message", [
    ("terms.0.points", "1" + "0" * 309, "(310 digits) is beyond the range of a number"),
    ("terms.0.points", "-" + "9" * 5000, "(5000 digits) is beyond the range of a number"),
    ("intercept", "1e400", "the number 1e400 is beyond the range"),
    ("target.positive", "Infinity", "Infinity is not a number JSON allows"),
    ("target.positive", "NaN", "NaN is not a number JSON allows"),
    ("golden.0.row", "[" * 100_000 + "]" * 100_000, "nested too deeply"),
])
def test_hand_edited_numbers_and_nesting_are_one_model_error(field, raw, message):
    """Issue 12 items 13 and 14: these crashed with OverflowError, ValueError, RecursionError,
    or (positive Infinity) were accepted and broke the exported Python."""
    with pytest.raises(ModelError) as err:
        loads(_with(field, raw))
    assert message in str(err.value) and "\n" not in str(err.value)


@pytest.mark.parametrize("positive", [math.inf, math.nan, 10 ** 400, None, ["1"]])
def test_target_positive_must_be_text_or_a_finite_number(positive):
    with pytest.raises(ModelError, match="target.positive: must be a string or a finite number"):
        Model("linear", Target("y", positive), (Input("a", "numeric"),), (Term("a", "linear", None, 1, "a"),), 0)


def test_an_integer_beyond_doubles_built_in_code_is_refused_not_a_crash():
    with pytest.raises(ModelError, match=r"terms\[0\].points: must be a finite number"):
        Model("linear", Target("y", 1), (Input("a", "numeric"),), (Term("a", "linear", None, 10 ** 400, "a"),), 0)


# ---------------------------------------------------------------- issue 12 item 9: bounds


@pytest.mark.parametrize("field, value, message", [
    ("terms_0_points", str(2**63), "terms[0].points: 9223372036854775808 takes |intercept| + |points| to"),
    ("terms_0_points", "9007199254740990", "terms[1].points: 3 takes |intercept| + |points| to"),
    ("intercept", "-9007199254740993", "intercept: -9007199254740993 is beyond"),
    ("terms_0_points", "1e300", "terms[0].points: 1e+300 takes"),
    ("terms_0_value", str(2**53 + 1), "terms[0].value: the integer 9007199254740993 is beyond +-2^53 = 9007199254740992 and no double holds it"),
])
def test_numbers_beyond_what_every_export_adds_exactly_are_refused(field, value, message):
    """|intercept| + the sum of |points| must stay within 2^53, where every export's sums
    are exact; an integer threshold beyond 2^53 is no double and is refused (one line)."""
    import json

    from scorecard.runtime import ModelError, loads

    d = json.loads(_bounded_model())
    where, k, key = (field.split("_") + [None])[:3] if field.startswith("terms") else (field, None, None)
    if where == "terms":
        d["terms"][int(k)][key] = "@"
    else:
        d[where] = "@"
    raw = json.dumps(d).replace('"@"', value)
    with pytest.raises(ModelError) as err:
        loads(raw)
    text = str(err.value)
    assert message in text and "2^53" in text and "\n" not in text


def _bounded_model() -> str:
    from scorecard.runtime import Input, Model, Target, Term, dumps

    return dumps(Model("linear", Target("y", 1), (Input("a", "numeric"),),
                       (Term("a", ">=", 3, 2, "a >= 3"), Term("a", "linear", None, 3, "a")), -1))


def test_the_largest_exact_model_is_accepted():
    import json

    from scorecard.runtime import loads

    d = json.loads(_bounded_model())
    d["terms"][0]["points"], d["intercept"] = 2**53 - 4, -1
    d["terms"][0]["value"] = -(2**53)
    assert loads(json.dumps(d)).terms[0].points == 2**53 - 4


def test_a_large_threshold_a_double_holds_is_accepted():
    """Training on values near 10^17 writes integer cut-offs such as 4 * 10^17: doubles, kept."""
    import json

    from scorecard.runtime import loads

    d = json.loads(_bounded_model())
    d["terms"][0]["value"] = 4 * 10**17
    assert loads(json.dumps(d)).terms[0].value == 4 * 10**17


def test_meta_round_trips_and_a_file_without_it_reads_as_before():
    from scorecard.runtime import InputMeta, Meta

    meta = Meta(title="T", description="D", negative="no", positive="yes",
                inputs=(("Size", InputMeta(label="Tumour size", unit="mm", description="largest diameter")),))
    model = replace(sample(), meta=meta)
    assert loads(dumps(model)) == model and "meta" not in json.loads(dumps(sample()))
    d = json.loads(dumps(model))
    d["meta"]["inputs"]["Nope"] = {"label": "x"}
    with pytest.raises(ModelError, match="meta.inputs.Nope: is not one of the model's inputs"):
        loads(json.dumps(d))
    d["meta"] = {"title": "a\x00b"}
    with pytest.raises(ModelError, match="meta.title"):
        loads(json.dumps(d))
