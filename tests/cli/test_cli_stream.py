"""``scorecard train`` on data read in row groups (trainer/stream.py, data/stream.py): a Parquet
file over ``--memory-limit`` or a folder of Parquet/CSV files trains the model the in-memory
path trains on the same rows, types columns by every row, and refuses bad input the same way."""
from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

pytest.importorskip("pyarrow")

LOGISTIC = ["--loss", "logistic", "--c0", "1e-4", "--coef-min", "-10", "--coef-max", "10", "--intercept-min", "-10",
            "--intercept-max", "10", "--numeric", "linear", "--time-limit", "120"]


def simulated(n: int, seed: int = 0) -> pd.DataFrame:
    """The paper's simulation (two 5-dim Gaussians, means 2 and 0), float32 columns, 0/1 target."""
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.5).astype(np.int8)
    X = (rng.standard_normal((n, 5)) + 2.0 * y[:, None]).astype(np.float32)
    return pd.DataFrame({**{f"x{j}": X[:, j] for j in range(5)}, "y": y})


def model(path) -> dict:
    return json.loads(path.read_text())


@pytest.fixture(scope="module")
def parquet(tmp_path_factory):
    path = tmp_path_factory.mktemp("stream") / "sim.parquet"
    simulated(30_000).to_parquet(path, row_group_size=7_000)
    return path


@pytest.mark.parametrize("limit, oracle", [("5M", "signed columns in memory"), ("1M", "streamed every pass")])
def test_a_file_over_the_memory_limit_trains_the_in_memory_model(cli, tmp_path, parquet, limit, oracle):
    memory, streamed = tmp_path / "memory.json", tmp_path / "streamed.json"
    assert cli("train", parquet, "--target", "y", *LOGISTIC, "-o", memory).code == 0
    run = cli("train", parquet, "--target", "y", *LOGISTIC, "--memory-limit", limit, "--title", "Simulation",
              "--label", "x1=First", "-o", streamed)
    assert run.code == 0, run.err
    assert "30,000 rows" in run.err and "read in row groups" in run.err
    a, b = model(memory), model(streamed)
    assert "stream" not in a["training"]["params"]
    record = b["training"]["params"]["stream"]
    assert record["oracle"] == oracle and record["rows"] == 30_000 and record["memory_limit"] < 21 * 2**20
    assert b["terms"] == a["terms"] and b["intercept"] == a["intercept"] == -10
    assert b["training"]["objective"] == pytest.approx(a["training"]["objective"], rel=1e-12)
    assert b["training"]["n_rows"] == a["training"]["n_rows"] == 30_000
    assert b["training"]["train_error"] == a["training"]["train_error"]
    assert b["meta"] == {"title": "Simulation", "inputs": {"x1": {"label": "First"}}}  # as in memory
    assert b["probability"] == a["probability"] == {"method": "logistic", "scale": 1.0, "center": 10}


@pytest.fixture
def spill_dir(tmp_path, monkeypatch):
    """The system temp dir of the spill (data/spill.py), and CSV row groups of 256 KB (several per file)."""
    import tempfile

    from scorecard.trainer.data import stream

    temp = tmp_path / "temp"
    temp.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(temp))
    monkeypatch.setattr(stream, "CSV_BLOCK_BYTES", 1 << 18)
    return temp


@pytest.fixture
def parses(monkeypatch):
    """How many times a CSV file's text is parsed (data/stream.py's row-group reader)."""
    from scorecard.trainer.data import stream

    counted = {"n": 0}
    read = stream._csv_batches

    def counting(*args):
        counted["n"] += 1
        yield from read(*args)

    monkeypatch.setattr(stream, "_csv_batches", counting)
    return counted


@pytest.mark.parametrize("limit, oracle", [("5M", "signed columns in memory"), ("1M", "streamed every pass")])
def test_a_csv_file_over_the_memory_limit_is_parsed_once_and_trains_the_in_memory_model(
        cli, tmp_path, spill_dir, parses, limit, oracle):
    path, memory, streamed = tmp_path / "sim.csv", tmp_path / "memory.json", tmp_path / "streamed.json"
    simulated(30_000).to_csv(path, index=False)  # float32 values as pandas writes them: 1.6 MB, 7 row groups
    assert cli("train", path, "--target", "y", *LOGISTIC, "-o", memory).code == 0
    run = cli("train", path, "--target", "y", *LOGISTIC, "--memory-limit", limit, "-o", streamed)
    assert run.code == 0, run.err
    assert "30,000 rows" in run.err and "read in row groups" in run.err
    a, b = model(memory), model(streamed)
    record = b["training"]["params"]["stream"]
    assert record["oracle"] == oracle and record["rows"] == 30_000
    assert record["passes_after_the_scan"].startswith("a temporary file of the row groups as the scan read them")
    assert parses["n"] == 1 and list(spill_dir.iterdir()) == []  # parsed by the scan alone; the spill is gone
    assert b["terms"] == a["terms"] and b["intercept"] == a["intercept"] == -10
    # streamed every pass, the loss is summed in float32 blocks within each 256 KB row group:
    # the same sum in another order, equal to about float32's precision
    close = 1e-12 if oracle == "signed columns in memory" else 1e-6
    assert b["training"]["objective"] == pytest.approx(a["training"]["objective"], rel=close)
    assert b["training"]["n_rows"] == a["training"]["n_rows"] == 30_000
    assert b["training"]["train_error"] == a["training"]["train_error"]


def test_a_target_of_three_values_streamed_is_the_positive_against_the_rest_as_in_memory(cli, tmp_path, spill_dir):
    data = simulated(30_000)
    data["y"] = np.where(data["y"] == 1, "case", np.where(np.arange(30_000) % 3 == 0, "lost", "control"))
    data.loc[29_990:, "y"] = "withdrawn"  # a fourth value in the last row group only
    path, memory, streamed = tmp_path / "sim.csv", tmp_path / "memory.json", tmp_path / "streamed.json"
    data.to_csv(path, index=False)
    # the cutting planes stop at their rounds of work (--work-limit), the same in both runs on any machine
    runs = [cli("train", path, "--target", "y", "--positive", "case", *LOGISTIC, "--work-limit", "5", *limit, "-o", out)
            for limit, out in (((), memory), (("--memory-limit", "1M"), streamed))]
    assert [r.code for r in runs] == [0, 0], runs[1].err
    note = "note: target column 'y' holds 4 classes: 'case' is the positive class and the other 3 ("
    assert all(note in r.err for r in runs) and "read in row groups" in runs[1].err
    a, b = model(memory), model(streamed)
    assert a["target"] == b["target"] == {"name": "y", "positive": "case", "rest": True}
    assert b["terms"] == a["terms"] and b["training"]["train_error"] == a["training"]["train_error"]


def test_a_bad_cell_in_a_later_row_group_of_a_csv_is_refused_and_the_spill_removed(cli, tmp_path, spill_dir):
    data = simulated(30_000).astype(object)
    data.loc[25_000, "x3"] = "inf"
    path, out = tmp_path / "bad.csv", tmp_path / "m.json"
    data.to_csv(path, index=False)
    run = cli("train", path, "--target", "y", *LOGISTIC, "--memory-limit", "1M", "-o", out)
    assert run.code == 2 and run.err.count("\n") == 1 and "bad.csv" in run.err and "'x3' holds 'inf'" in run.err
    assert not out.exists() and list(spill_dir.iterdir()) == []


def test_a_csv_column_of_numbers_then_text_is_categorical_with_its_cells_as_written(cli, tmp_path, spill_dir, parses):
    data = simulated(30_000)
    grades = np.array(["1.50", "2", "3.0"], dtype=object)[np.arange(30_000) % 3]
    grades[-1] = "n/a"  # text only in the last row group: the column is categorical, its numbers as written
    data["grade"] = grades
    path, memory, streamed = tmp_path / "g.csv", tmp_path / "memory.json", tmp_path / "streamed.json"
    data.to_csv(path, index=False)
    assert cli("train", path, "--target", "y", *LOGISTIC, "-o", memory).code == 0
    run = cli("train", path, "--target", "y", *LOGISTIC, "--memory-limit", "5M", "-o", streamed)
    assert run.code == 0, run.err
    a, b = model(memory), model(streamed)
    grade = next(i for i in b["inputs"] if i["name"] == "grade")
    assert grade == next(i for i in a["inputs"] if i["name"] == "grade")
    assert grade["categories"] == ["1.50", "2", "3.0", "n/a"]
    assert b["training"]["params"]["stream"]["passes_after_the_scan"] == "the files" and parses["n"] == 2
    assert b["terms"] == a["terms"] and b["intercept"] == a["intercept"]
    assert b["training"]["objective"] == pytest.approx(a["training"]["objective"], rel=1e-12)


def test_streamed_parquet_types_boolean_and_category_columns_as_the_in_memory_reader(cli, tmp_path):
    data = simulated(3_000)
    data["flag"] = data["x0"] > 2  # a boolean column: its text, "true"/"false", as in memory
    data["band"] = pd.Categorical(np.where(data["x1"] > 1, "high", "low"))
    path, memory, streamed = tmp_path / "b.parquet", tmp_path / "memory.json", tmp_path / "streamed.json"
    data.to_parquet(path)
    assert cli("train", path, "--target", "y", *LOGISTIC, "-o", memory).code == 0
    run = cli("train", path, "--target", "y", *LOGISTIC, "--memory-limit", "100K", "-o", streamed)
    assert run.code == 0 and "read in row groups" in run.err, run.err
    a, b = model(memory), model(streamed)
    assert b["inputs"] == a["inputs"] and {i["name"]: i["type"] for i in b["inputs"]}["flag"] == "categorical"
    assert b["terms"] == a["terms"] and b["intercept"] == a["intercept"]


def test_metadata_for_a_column_streamed_data_lacks_is_refused(cli, tmp_path, parquet):
    out = tmp_path / "m.json"
    run = cli("train", parquet, "--target", "y", *LOGISTIC, "--memory-limit", "1M", "--unit", "x9=kg", "-o", out)
    assert run.code == 2 and "no column 'x9'" in run.err and not out.exists()


def test_a_folder_of_parquet_and_csv_files_is_typed_by_every_row(cli, tmp_path):
    rng = np.random.default_rng(1)
    frames = []
    for k in range(3):
        f = simulated(4_000, seed=k)
        f["city"] = rng.choice(["north", "south"], len(f))
        f["grade"] = rng.integers(0, 5, len(f)).astype(float)
        frames.append(f)
    frames[2].loc[7, "city"] = "east"  # a level only the last file holds
    frames[2]["grade"] = frames[2]["grade"].astype(object)
    frames[2].loc[9, "grade"] = "n/a"  # text in a numeric column, only in the last file: categorical
    folder = tmp_path / "data"
    folder.mkdir()
    frames[0].to_parquet(folder / "a.parquet")
    frames[1].to_parquet(folder / "b.parquet")
    frames[2].to_csv(folder / "c.csv", index=False)
    out = tmp_path / "m.json"
    run = cli("train", folder, "--target", "y", *LOGISTIC, "--c0", "0.02", "-o", out)  # noise columns priced out
    assert run.code == 0, run.err
    m = model(out)
    inputs = {i["name"]: i for i in m["inputs"]}
    assert inputs["city"]["type"] == "categorical" and "east" in inputs["city"]["categories"]
    assert inputs["grade"]["type"] == "categorical" and "n/a" in inputs["grade"]["categories"]
    assert m["training"]["n_rows"] == 12_000 and m["training"]["params"]["stream"]["files"] == 3


def test_bad_input_in_a_streamed_folder_names_the_file_column_and_value(cli, tmp_path):
    folder = tmp_path / "data"
    folder.mkdir()
    simulated(100).to_parquet(folder / "a.parquet")
    bad = simulated(100, seed=2)
    bad.loc[5, "x3"] = np.inf
    bad.to_parquet(folder / "b.parquet")
    run = cli("train", folder, "--target", "y", *LOGISTIC, "-o", tmp_path / "m.json")
    assert run.code == 2 and "b.parquet" in run.err and "'x3'" in run.err and "inf" in run.err
    (folder / "b.parquet").unlink()
    simulated(100).drop(columns="x4").to_csv(folder / "c.csv", index=False)
    run = cli("train", folder, "--target", "y", *LOGISTIC, "-o", tmp_path / "m.json")
    assert run.code == 2 and "c.csv" in run.err and "share one header" in run.err
    assert not (tmp_path / "m.json").exists()


def test_a_missing_label_and_a_bad_memory_limit_are_refused(cli, tmp_path):
    data = simulated(200)
    data["y"] = data["y"].astype(float)
    data.loc[150, "y"] = np.nan
    path = tmp_path / "d.parquet"
    data.to_parquet(path)
    run = cli("train", path, "--target", "y", *LOGISTIC, "--memory-limit", "1K", "-o", tmp_path / "m.json")
    assert run.code == 2 and "target column 'y' has 1 missing values" in run.err
    run = cli("train", path, "--target", "y", *LOGISTIC, "--memory-limit", "lots", "-o", tmp_path / "m.json")
    assert run.code == 2 and "--memory-limit: 'lots' is not valid" in run.err


def grades(n: int, seed: int = 0) -> pd.DataFrame:
    """n rows of three small whole-number columns: few distinct rows however large n is."""
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 4, (n, 3))
    y = (rng.random(n) < 1 / (1 + np.exp(-(X[:, 0] - X[:, 1] + 0.5)))).astype(int)
    return pd.DataFrame({"a": X[:, 0], "b": X[:, 1], "c": X[:, 2], "y": y})


def test_the_zero_one_loss_on_many_rows_solves_the_grouped_rows_exactly(cli, tmp_path):
    from scorecard.trainer.data.prepare import prepare
    from scorecard.trainer.options.config import TrainConfig
    from scorecard.trainer.train import train

    data = grades(60_000)  # more rows than the exact problem takes: grouped (64 x 2 distinct rows at most)
    path, out = tmp_path / "g.csv", tmp_path / "m.json"
    data.to_csv(path, index=False)
    run = cli("train", path, "--target", "y", "--c0", "0.01", "--time-limit", "60", "--work-limit", "10", "-o", out)
    assert run.code == 0, run.err
    assert "60,000 rows are" in run.err and "the exact problem on them, their counts as weights" in run.err
    m = model(out)
    t = m["training"]
    assert t["params"]["stream"]["problem"] == "exact on grouped rows" and t["n_rows"] == 60_000
    memory = train(prepare(data, "y"), TrainConfig(c0=0.01, time_limit=60, work_limit=10))  # the same rows in memory
    assert t["status"] == memory.training.status == "optimal"
    assert m["intercept"] == memory.intercept and len(m["terms"]) == len(memory.terms)
    assert [x["points"] for x in m["terms"]] == [x.points for x in memory.terms]
    assert t["objective"] == pytest.approx(memory.training.objective, rel=1e-9)
    assert t["train_error"] == pytest.approx(memory.training.train_error, rel=1e-12)
    fit = m["probability"]["fit"]  # the risk fit weighted by the counts: that of the rows in memory
    assert fit["rows"] == 60_000 and fit["center"] == memory.threshold
    assert [r["risk"] for r in m["probability"]["table"]] == pytest.approx(
        [r["risk"] for r in memory.probability["table"]], abs=2e-6)


def test_the_zero_one_loss_on_too_many_distinct_rows_says_it_trains_on_a_sample(cli, tmp_path):
    from scorecard.runtime import load, predict

    rng = np.random.default_rng(5)
    data = pd.DataFrame({"u": rng.random(60_000).round(6), "v": rng.integers(0, 9, 60_000)})
    data["y"] = (data["u"] + 0.05 * data["v"] + 0.3 * rng.random(60_000) > 0.9).astype(int)
    path, out = tmp_path / "d.parquet", tmp_path / "m.json"
    data.to_parquet(path)
    run = cli("train", path, "--target", "y", "--c0", "0.01", "--time-limit", "10", "-o", out)
    assert run.code == 0, run.err
    assert "too many for the exact 0-1 problem (at most 50,000): trained on a random sample of 50,000 rows" in run.err
    t = model(out)["training"]
    assert "60,000 rows are at least 5" in run.err  # the sample alone shows it: no grouping pass
    assert t["params"]["stream"]["grouped_rows"] is None and t["n_rows"] == 60_000
    m = load(str(out))
    wrong = sum(predict(m, row) != row["y"] for row in data.to_dict("records"))
    assert t["train_error"] == pytest.approx(wrong / 60_000, abs=1e-12)  # the error of every row

