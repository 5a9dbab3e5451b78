"""Every code export, run in its real engine outside the project, gives exactly the runtime's
score and prediction on every row of the real datasets (breastcancer, mushroom_raw with its
missing stalk_root, heart and spambase with float scores, an M-of-N table, an imputing model).
"""
from __future__ import annotations

import csv
import io
import math

import onnx
import pytest

from code_models import DATASETS, breastcancer_model, case_rows, heart_model, mushroom_model, read_rows
from code_engines import create_table, import_and_score, onnx_feeds, onnx_results, run_python_export, run_sql
from scorecard.exporters import onnx as onnx_export
from scorecard.exporters import python as python_export
from scorecard.exporters import sql as sql_export
from scorecard.runtime import predict, score, score_csv


def expected(model, rows) -> list[tuple]:
    return [(score(model, r), predict(model, r)) for r in rows]


def runtime_table(model, data: str) -> str:
    out = io.StringIO()
    with open(DATASETS / data, newline="", encoding="utf-8") as fh:
        score_csv(model, fh, out)
    return out.getvalue()


# ---------------------------------------------------------------------------- python


def test_python_file_prints_what_scorecard_predict_prints(case, tmp_path):
    name, model, data = case
    path = tmp_path / "model.py"
    path.write_text(python_export.render(model), encoding="utf-8")
    done = run_python_export(path, DATASETS / data)
    assert done.returncode == 0, done.stderr
    assert done.stdout == runtime_table(model, data)  # byte for byte: same scores, same formatting
    if name == "mushroom":
        assert done.stderr == "2480 of 8124 rows have no score (missing values)\n"


def test_python_score_and_predict_take_typed_values_like_the_runtime(case, tmp_path):
    name, model, data = case
    path = tmp_path / "model.py"
    path.write_text(python_export.render(model), encoding="utf-8")
    rows = []
    for r in read_rows(data)[:300]:
        typed = {}
        for k, v in r.items():
            try:
                typed[k] = int(v)
            except ValueError:
                try:
                    typed[k] = float(v)
                except ValueError:
                    typed[k] = v if v else None
        rows.append(typed)
    rows[0] = {k: (math.nan if isinstance(v, float) else v) for k, v in rows[0].items()}
    assert import_and_score(path, rows) == expected(model, rows)


# ---------------------------------------------------------------------------- sql


def test_sql_query_gives_the_runtimes_scores_on_every_row(case, engine):
    name, model, data = case
    eng, con = engine
    rows = case_rows(model, data)
    create_table(eng, con, rows)
    got = run_sql(eng, con, sql_export.render(model, dialect=eng))
    assert list(got[0]) == list(rows[0]) + ["score", "prediction"]
    assert [(g["score"], g["prediction"]) for g in got] == expected(model, rows)
    if name == "breastcancer":
        assert all(isinstance(g["score"], int) for g in got)  # integer model, integer data: integer scores


@pytest.mark.parametrize("build,data", [(breastcancer_model, "breastcancer.csv"), (heart_model, "heart.csv"),
                                        (mushroom_model, "mushroom_raw.csv")])
def test_ansi_sql_runs_unchanged_in_every_engine(build, data, engine):
    eng, con = engine
    model, rows = build(), read_rows(data)
    create_table(eng, con, rows)
    got = run_sql(eng, con, sql_export.render(model, dialect="ansi"))
    assert [(g["score"], g["prediction"]) for g in got] == expected(model, rows)


def test_sql_table_and_view_options(engine):
    eng, con = engine
    model, rows = heart_model(), read_rows("heart.csv")
    create_table(eng, con, rows, table="Heart patients 2024")
    con.execute(sql_export.render(model, dialect=eng, table="Heart patients 2024", view="scored hearts"))
    got = run_sql(eng, con, 'SELECT * FROM "scored hearts"')
    assert [(g["score"], g["prediction"]) for g in got] == expected(model, rows)


def test_columns_in_another_order_give_identical_results(engine, tmp_path):
    eng, con = engine
    model = heart_model()
    rows = [dict(reversed(list(r.items()))) for r in read_rows("heart.csv")]
    create_table(eng, con, rows)
    got = run_sql(eng, con, sql_export.render(model, dialect=eng))
    assert list(got[0])[:2] == list(rows[0])[:2]
    assert [(g["score"], g["prediction"]) for g in got] == expected(model, rows)
    data = tmp_path / "reversed.csv"
    with open(data, "w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    path = tmp_path / "model.py"
    path.write_text(python_export.render(model), encoding="utf-8")
    done = run_python_export(path, data)
    scored = list(csv.DictReader(io.StringIO(done.stdout)))
    assert [(float(s["score"]), int(s["prediction"])) for s in scored] == expected(model, rows)


# ---------------------------------------------------------------------------- onnx


def test_onnx_gives_the_runtimes_scores_on_every_row(case):
    name, model, data = case
    rows = case_rows(model, data)
    assert onnx_results(onnx_export.render(model), onnx_feeds(model, rows)) == expected(model, rows)


def test_onnx_signature_is_the_models_inputs_and_passes_the_full_checker(case):
    name, model, data = case
    proto = onnx.load_from_string(onnx_export.render(model))
    onnx.checker.check_model(proto, full_check=True)
    assert [(o.domain, o.version) for o in proto.opset_import] == [("", onnx_export.OPSET)]
    graph_inputs = {i.name: i.type.tensor_type for i in proto.graph.input}
    assert list(graph_inputs) == [i.name for i in model.inputs]
    for inp in model.inputs:
        want = onnx.TensorProto.STRING if inp.type == "categorical" else onnx.TensorProto.DOUBLE
        assert graph_inputs[inp.name].elem_type == want
        assert [d.dim_param for d in graph_inputs[inp.name].shape.dim] == ["N"]
    assert [o.name for o in proto.graph.output] == ["score", "prediction"]
