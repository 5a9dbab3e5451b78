"""Issue 14 item 1: a model's title, description, class names and per input label, unit and
description, from --meta FILE.toml, [meta] in --config and flags, kept in the model file and
shown by every card and export."""
from __future__ import annotations

import json

import onnx
from scorecard.runtime import Input, Model, Target, Term, dump, load

TRAIN = "a,b,y\n" + "".join(f"{a},{b},{int(a + b > 4)}\n" for a in range(5) for b in range(5)) * 2
META = """title = "Screening"
description = "Adults seen in clinic; who to refer"
[classes]
positive = "refer"
[inputs.a]
label = "Age band"
unit = "decades"
"""


def test_train_keeps_meta_from_a_file_the_config_and_flags(cli, write, tmp_path):
    data, out = write("t.csv", TRAIN), tmp_path / "m.json"
    config = write("c.toml", 'target = "y"\nc0 = 0.01\n[meta]\ndescription = "from the config"\n'
                             '[meta.inputs.b]\nlabel = "Blood pressure"\n')
    run = cli("train", data, "--config", config, "--meta", write("meta.toml", META), "--unit", "b=mmHg",
              "--label", "a=Age group", "--time-limit", "60", "-o", out)
    assert run.code == 0, run.err
    meta = json.loads(out.read_text())["meta"]
    assert meta == {"title": "Screening", "description": "Adults seen in clinic; who to refer",
                    "classes": {"positive": "refer"},
                    "inputs": {"a": {"label": "Age group", "unit": "decades"},
                               "b": {"label": "Blood pressure", "unit": "mmHg"}}}
    shown = cli("show", out).out
    assert shown.startswith("Screening\nAdults seen in clinic; who to refer\nPREDICT refer (y = 1) IF SCORE >")
    assert "Age group (decades)" in shown and "[a]" in shown


def test_meta_adds_labels_to_a_trained_model_without_retraining(cli, write, tmp_path):
    path = tmp_path / "m.json"
    dump(Model("linear", Target("y", 1), (Input("glu", "numeric"),), (Term("glu", ">=", 150, 2, "glu >= 150"),), -1),
         str(path))
    before = load(str(path))
    run = cli("meta", path, "--label", "glu=Plasma glucose", "--unit", "glu=mg/dL", "--title", "T */ \n x")
    assert run.code == 0, run.err
    after = load(str(path))
    assert after.terms == before.terms and after.meta.input("glu").shown == "Plasma glucose (mg/dL)"
    py = tmp_path / "m.py"
    assert cli("export", path, "--format", "python", "-o", py).code == 0
    source = py.read_text()
    assert "# title: T */ \\n x\n" in source  # the line break escaped: the comment cannot end early
    compile(source, "m.py", "exec")
    sql = tmp_path / "m.sql"
    assert cli("export", path, "--format", "sql", "-o", sql).code == 0
    assert "-- title: T */ \\n x\n" in sql.read_text() and "-- input glu: Plasma glucose (mg/dL)" in sql.read_text()
    onnx_path = tmp_path / "m.onnx"
    assert cli("export", path, "--format", "onnx", "-o", onnx_path).code == 0
    props = {p.key: p.value for p in onnx.load(str(onnx_path)).metadata_props}
    assert json.loads(props["meta"])["inputs"]["glu"] == {"label": "Plasma glucose", "unit": "mg/dL"}


def test_metadata_for_a_column_the_model_lacks_is_refused_naming_it(cli, write, tmp_path):
    path = tmp_path / "m.json"
    dump(Model("linear", Target("y", 1), (Input("glu", "numeric"),), (Term("glu", ">=", 150, 2, ""),), -1), str(path))
    run = cli("meta", path, "--label", "gluc=Glucose")
    assert run.code == 2 and "no column 'gluc'" in run.err and "Traceback" not in run.err
    run = cli("train", write("t.csv", TRAIN), "--target", "y", "--unit", "c=kg", "-o", tmp_path / "n.json")
    assert run.code == 2 and "no column 'c'" in run.err and not (tmp_path / "n.json").exists()
    bad = write("bad.toml", '[inputs.glu]\ncolour = "red"\n')
    run = cli("meta", path, "--meta", bad)
    assert run.code == 2 and "bad.toml: meta.inputs.glu.colour" in run.err
