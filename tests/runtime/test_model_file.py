"""runtime.model: the model file round-trips exactly and refuses bad files naming the field."""
from __future__ import annotations

import json

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


@pytest.mark.parametrize("edit, field", [
    (lambda d: d.pop("intercept"), "intercept: is missing"),
    (lambda d: d["terms"][0].update(points="2"), "terms[0].points: has the wrong type"),
    (lambda d: d["terms"][1].update(op="!="), "terms[1].op: must be one of"),
    (lambda d: d["terms"][0].update(input="Age"), "terms[0].input: 'Age' is not one of the model's inputs"),
    (lambda d: d["inputs"][0].update(type="float"), "inputs[0].type: must be one of"),
    (lambda d: d.update(kind="tree"), "kind: must be one of"),
    (lambda d: d.update(missing="zero"), "missing: must be"),
    (lambda d: d["golden"][0].update(prediction=2), "golden[0].prediction: must be 0, 1 or null"),
    (lambda d: d.update(version=2), "version: this scorecard reads version 1, the file is version 2"),
    (lambda d: d.update(format="other"), "format: must be 'scorecard-model'"),
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
