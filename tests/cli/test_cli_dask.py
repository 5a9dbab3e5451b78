"""``--dask ADDRESS`` on a real ``distributed`` cluster (a LocalCluster of 2 worker processes):
``train`` reads a folder on the workers and trains the model the in-memory path trains on the
same rows; ``predict`` scores the partitions in parallel and writes exactly what it writes
without a cluster. ``make test`` installs dask and distributed (extra ``dask``); in CI a
missing one fails instead of skipping."""
from __future__ import annotations

import importlib
import json
import os

import numpy as np
import pandas as pd
import pytest


def need(module: str):
    try:
        return importlib.import_module(module)
    except ImportError:
        message = f"{module} is not installed (pip install 'scorecard[dask]'; make test installs it)"
        if os.environ.get("CI", "").lower() in ("true", "1"):
            pytest.fail(message)
        pytest.skip(message)


@pytest.fixture(scope="module")
def address():
    """A local cluster of 2 worker processes (1 thread each); the commands connect by address."""
    need("dask.dataframe")
    need("pyarrow")
    distributed = need("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        yield cluster.scheduler_address


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    """Three files (two Parquet, one CSV) of the paper's simulation plus a text column, and the same rows as one CSV."""
    root = tmp_path_factory.mktemp("dask")
    rng = np.random.default_rng(3)
    frames = []
    for k in range(3):
        y = (rng.random(6_000) < 0.5).astype(np.int8)
        X = np.round(rng.standard_normal((6_000, 3)) + 2.0 * y[:, None], 3)
        frames.append(pd.DataFrame({"x0": X[:, 0], "x1": X[:, 1], "x2": X[:, 2],
                                    "kind": rng.choice(["a", "b", "c"], 6_000), "y": y}))
    data = root / "data"
    data.mkdir()
    frames[0].to_parquet(data / "part0.parquet")
    frames[1].to_parquet(data / "part1.parquet")
    frames[2].to_csv(data / "part2.csv", index=False)
    pd.concat(frames).to_csv(root / "all.csv", index=False)
    return root


OPTIONS = ["--target", "y", "--loss", "logistic", "--c0", "0.001", "--coef-min", "-10", "--coef-max", "10",
           "--intercept-min", "-10", "--intercept-max", "10", "--numeric", "linear", "--time-limit", "120"]


def test_train_on_the_cluster_is_the_model_trained_in_memory(cli, address, folder, tmp_path):
    memory, cluster = tmp_path / "memory.json", tmp_path / "cluster.json"
    assert cli("train", folder / "all.csv", *OPTIONS, "-o", memory).code == 0
    run = cli("train", folder / "data", *OPTIONS, "--dask", address, "-o", cluster)
    assert run.code == 0, run.err
    assert "18,000 rows" in run.err and address in run.err
    a, b = json.loads(memory.read_text()), json.loads(cluster.read_text())
    assert b["terms"] == a["terms"] and b["intercept"] == a["intercept"]
    assert b["training"]["objective"] == pytest.approx(a["training"]["objective"], rel=1e-9)
    assert b["training"]["n_rows"] == 18_000 and b["training"]["train_error"] == a["training"]["train_error"]
    assert b["training"]["params"]["stream"]["oracle"] == "DaskOracle"


def test_predict_on_the_cluster_writes_what_predict_writes(cli, address, folder, tmp_path):
    model, here, there = tmp_path / "m.json", tmp_path / "here.csv", tmp_path / "there.csv"
    assert cli("train", folder / "all.csv", *OPTIONS, "-o", model).code == 0
    assert cli("predict", model, folder / "all.csv", "-o", here).code == 0
    run = cli("predict", model, folder / "all.csv", "--dask", address, "-o", there)
    assert run.code == 0, run.err
    assert there.read_text() == here.read_text()
    assert cli("predict", model, folder / "all.csv", "--explain", "2", "-o", here).code == 0
    run = cli("predict", model, folder / "all.csv", "--explain", "2", "--dask", address, "-o", there)
    assert run.code == 0, run.err
    assert there.read_text() == here.read_text() and "reason_2" in here.read_text().splitlines()[0]


def test_the_zero_one_loss_and_an_unreachable_scheduler_are_refused(cli, address, folder, tmp_path):
    run = cli("train", folder / "data", "--target", "y", "--c0", "0.01", "--dask", address, "-o", tmp_path / "m.json")
    assert run.code == 2 and "convex losses" in run.err
    run = cli("train", folder / "data", *OPTIONS, "--dask", "tcp://127.0.0.1:9", "-o", tmp_path / "m.json")
    assert run.code == 2 and "no Dask scheduler answers" in run.err
    assert not (tmp_path / "m.json").exists()
