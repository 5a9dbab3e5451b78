"""scorecard predict: the input rows unchanged, plus score and prediction."""
from __future__ import annotations

import pandas as pd
from scorecard.runtime import Input, Model, Target, Term, dump


def model(path) -> str:
    dump(Model("linear", Target("y", 1), (Input("a", "numeric"),), (Term("a", "linear", None, 2, "a"),), -5),
         str(path))
    return str(path)


def test_predict_reads_a_file_with_a_byte_order_mark_like_training_does(cli, tmp_path):
    data, out = tmp_path / "bom.csv", tmp_path / "o.csv"
    data.write_bytes(b"\xef\xbb\xbfa\n1\n3\n")
    assert cli("predict", model(tmp_path / "m.json"), data, "-o", out).code == 0
    assert out.read_text() == "a,score,prediction\n1,2,0\n3,6,1\n"


def test_predict_scores_parquet_and_counts_unscored_rows(cli, tmp_path):
    data, out = tmp_path / "d.parquet", tmp_path / "o.csv"
    pd.DataFrame({"a": [1.0, None, 4.0], "name": ["x", "y", "z"]}).to_parquet(data)
    run = cli("predict", model(tmp_path / "m.json"), data, "-o", out)
    assert run.code == 0
    assert out.read_text() == "a,name,score,prediction\n1,x,2,0\n,y,,\n4,z,8,1\n"
    assert run.err == "1 of 3 rows have no score (missing values)\n"
