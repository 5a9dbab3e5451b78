"""Instructions per 65,536-row batch of the matrix ONNX graph and skl2onnx's models, counted by
valgrind (load-independent, where wall times on a shared machine are not).

    python benchmarks/onnx_instructions.py

For each model (our ``--onnx-input matrix`` graph of benchmarks/exports.py's model, skl2onnx's
LinearRegression and LogisticRegression on the same double [N, 11] input) valgrind
--tool=callgrind runs a fresh process that creates the session (1 intra-op thread, the
options of exports.py) and runs the batch 2 times, then again 2 + 5 times: the difference of
the two instruction counts over 5 is one run's, start-up and session creation cancelled out.
Needs valgrind (Debian's package) and the bench extra. Not part of the test suite.
"""
from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

EXTRA = 5  # measured runs on top of the 2 warm-up runs


def write_models(folder: Path) -> dict[str, Path]:
    """The three models and the batch (``batch.npy``) in ``folder``."""
    import skl2onnx
    from exports import BATCH, NAMES, THRESHOLD, bench_model, reference
    from scorecard.exporters import onnx as onnx_export
    from skl2onnx.common.data_types import DoubleTensorType
    from sklearn.linear_model import LinearRegression, LogisticRegression

    x = np.random.default_rng(7).integers(1, 11, size=(BATCH, len(NAMES)), dtype=np.int64)
    labels = (reference(x) > THRESHOLD).astype(np.int64)
    xf = x.astype(np.float64)
    double = [("X", DoubleTensorType([None, len(NAMES)]))]
    linear = LinearRegression().fit(xf[:1000], x[:1000] @ np.arange(1, 12))
    logistic = LogisticRegression(max_iter=1000).fit(xf[:5000], labels[:5000])
    blobs = {"onnx export, --onnx-input matrix": onnx_export.render(bench_model(), "matrix"),
             "skl2onnx LinearRegression": skl2onnx.convert_sklearn(linear, initial_types=double).SerializeToString(),
             "skl2onnx LogisticRegression": skl2onnx.convert_sklearn(
                 logistic, initial_types=double, options={id(logistic): {"zipmap": False}}).SerializeToString()}
    np.save(folder / "batch.npy", xf)
    paths = {}
    for k, (name, blob) in enumerate(blobs.items()):
        paths[name] = folder / f"model{k}.onnx"
        paths[name].write_bytes(blob)
    return paths


def run_batch(model: str, batch: str, runs: int) -> None:
    """One session (the options of exports.py, 1 thread) running the batch ``runs`` times."""
    from exports import session

    s = session(Path(model).read_bytes(), 1)
    feed = {s.get_inputs()[0].name: np.load(batch)}
    for _ in range(runs):
        s.run(None, feed)


def count(model: Path, batch: Path, runs: int) -> int:
    """Instructions valgrind counts for a process running the batch ``runs`` times."""
    out = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={model}.{runs}.cg", sys.executable,
                          __file__, "--run", str(model), str(batch), str(runs)],
                         capture_output=True, text=True, check=True, env={**os.environ, "PYTHONHASHSEED": "0"})
    return int(re.search(r"Collected : (\d+)", out.stderr).group(1))


def main() -> None:
    if sys.argv[1:2] == ["--run"]:
        run_batch(sys.argv[2], sys.argv[3], int(sys.argv[4]))
        return
    with tempfile.TemporaryDirectory(prefix="scorecard-callgrind-") as tmp:
        folder = Path(tmp)
        for name, path in write_models(folder).items():
            per_run = (count(path, folder / "batch.npy", 2 + EXTRA) - count(path, folder / "batch.npy", 2)) / EXTRA
            print(f"{name:<36} {per_run / 1e6:8.1f} M instructions per 65,536-row batch", flush=True)


if __name__ == "__main__":
    main()
