"""What any ONNX graph of a card costs at least, against skl2onnx's LinearRegression, in the same run.

    python benchmarks/onnx_floor.py               # 1,000,000 rows, median of 7, prints a table
    python benchmarks/onnx_floor.py --write       # ... and records it in benchmarks/RESULTS.md

Issue 15 asks the ``--onnx-input matrix`` export for at least 1.0x skl2onnx's rows/s. Against
its LinearRegression (``X @ coef + intercept``: one MatMul by a vector, one Add) the exports
measure 0.35-0.83x (benchmarks/exports.py). This benchmark asks whether any graph could do
better, on the same double [N, 11] input of whole numbers 1..10 as exports.py, in 65,536-row
batches: it times single onnxruntime kernels over the input, each less than a card needs, and
the least graph that scores exports.py's card of 11 cut-offs exactly on such input
(``Sub`` of the cut-offs, ``Clip`` to [0, 1], ``MatMul`` by the points as a [11, 1] column: no
exactness proof, no missing values, no prediction), beside that card's export. A card's
conditions are not linear in the inputs, so its graph needs at least one element-wise pass over
the [N, 11] input and one reduction; when one element-wise pass alone comes near
LinearRegression's whole graph, no card reaches 1.0x it. Needs the ``bench`` extra
(scikit-learn, skl2onnx). Not part of the test suite.
"""
from __future__ import annotations


import numpy as np
from exports import BATCH, CUTS, NAMES, _machine, cuts_model, interleaved, session
from results import onnx_main
from scorecard.exporters import onnx as onnx_export

HEADING = "## ONNX: the least a card's graph costs (benchmarks/onnx_floor.py)"
ANCHOR = "anchor: skl2onnx LinearRegression (MatMul by a vector, Add)"
#: The least graph scoring the 11 cut-offs card exactly on whole-number input.
LEAST = "least card graph: Sub, Clip, MatMul by a [11, 1] column"
EXPORT = "the card's export, --onnx-input matrix"


def _graph(nodes: list, constants: dict[str, np.ndarray]) -> bytes:
    """A model of ``nodes`` from input ``X`` (double [N, 11]) to output ``y``."""
    from onnx import TensorProto, helper, numpy_helper

    graph = helper.make_graph(nodes, "floor", [helper.make_tensor_value_info("X", TensorProto.DOUBLE, [None, len(NAMES)])],
                              [helper.make_tensor_value_info("y", TensorProto.DOUBLE, None)],
                              [numpy_helper.from_array(v, k) for k, v in constants.items()])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", onnx_export.OPSET)])
    model.ir_version = onnx_export.IR_VERSION
    return model.SerializeToString()


def graphs(x: np.ndarray) -> dict[str, bytes]:
    """The anchor, the kernels and the graphs timed, by name."""
    import skl2onnx
    from onnx import TensorProto, helper
    from skl2onnx.common.data_types import DoubleTensorType
    from sklearn.linear_model import LinearRegression

    node = helper.make_node
    cuts = np.array([t - 1 for t, _ in CUTS], dtype=np.float64)  # x >= t is x - (t - 1) clipped to [0, 1]
    points = np.array([[p] for _, p in CUTS], dtype=np.float64)
    scalars = {"zero": np.array(0.0), "one": np.array(1.0)}
    lr = LinearRegression().fit(x[:1000].astype(float), x[:1000] @ np.arange(1, 12))
    return {
        ANCHOR: skl2onnx.convert_sklearn(lr, initial_types=[("X", DoubleTensorType([None, len(NAMES)]))])
        .SerializeToString(),
        "kernel: MatMul by a [11, 1] column": _graph([node("MatMul", ["X", "points"], ["y"])], {"points": points}),
        "kernel: Clip of the input (one element-wise pass)": _graph([node("Clip", ["X", "zero", "one"], ["y"])], scalars),
        "kernel: Sub of a [11] row (one broadcast pass)": _graph([node("Sub", ["X", "cuts"], ["y"])], {"cuts": cuts}),
        "kernels: GreaterOrEqual, Cast to double": _graph(
            [node("GreaterOrEqual", ["X", "cuts"], ["ge"]), node("Cast", ["ge"], ["y"], to=TensorProto.DOUBLE)],
            {"cuts": cuts + 1}),
        LEAST: _graph([node("Sub", ["X", "cuts"], ["d"]), node("Clip", ["d", "zero", "one"], ["s"]),
                       node("MatMul", ["s", "points"], ["y"])], {"cuts": cuts, "points": points, **scalars}),
        EXPORT: onnx_export.render(cuts_model(), "matrix"),
    }


def run(n: int, repeat: int, threads: tuple[int, ...]) -> list[tuple[str, str, float, str]]:
    """(what, engine, rows per second, note) of every graph, on 65,536-row batches."""
    import onnxruntime as ort

    x = np.random.default_rng(7).integers(1, 11, size=(n, len(NAMES))).astype(np.float64)  # as exports.py
    batches = [x[i:i + BATCH] for i in range(0, n, BATCH)]
    blobs = graphs(x)
    card = cuts_model()
    want = sum(np.where(x[:, k] >= t, p, 0) for k, (t, p) in enumerate(CUTS))
    engine = f"onnxruntime {ort.__version__}"
    out: list[tuple[str, str, float, str]] = []
    for count in threads:
        sessions = {what: session(blob, count) for what, blob in blobs.items()}
        least = sessions[LEAST].run(None, {"X": x[:BATCH]})[0].ravel()
        exported = sessions[EXPORT].run(["score"], {onnx_export.matrix_columns(card)[0]: x[:BATCH]})[0]
        if not (np.array_equal(least, want[:BATCH]) and np.array_equal(exported, want[:BATCH])):
            raise SystemExit("a card graph disagrees with the card's scores (its points totals)")
        feeds = {what: s.get_inputs()[0].name for what, s in sessions.items()}
        runs = {what: (lambda s=s, name=feeds[what]: [s.run(None, {name: b}) for b in batches])
                for what, s in sessions.items()}
        label = f"batches of {BATCH:,} rows, {count} intra-op thread{'s' if count > 1 else ''}"
        for what, seconds in interleaved(runs, repeat).items():
            out.append((what, engine, n / seconds, label))
            print(f"{what:<56} {n / seconds / 1e6:7.2f} M rows/s  {label}", flush=True)
    return out


def section(results: list[tuple[str, str, float, str]], n: int, repeat: int, command: str, load_avg: float) -> str:
    lines = [HEADING, "", _machine(n, repeat, load_avg), f"Command: `{command}`", "",
             "Input: double [N, 11] of whole numbers 1..10 (benchmarks/exports.py's), in 65,536-row batches; the card "
             "is exports.py's 11 cut-offs card (one `x >= t` per column, whole-number points).",
             "", "| what | engine | M rows/s | x LinearRegression | note |", "|---|---|---:|---:|---|"]
    anchor = {note: rate for what, _, rate, note in results if what == ANCHOR}
    lines += [f"| {what} | {engine} | {rate / 1e6:.2f} | {rate / anchor[note]:.2f} | {note} |"
              for what, engine, rate, note in results]
    least = [f"{rate / anchor[note]:.2f}x ({note})" for what, _, rate, note in results if what == LEAST]
    lines += ["", "The least graph that scores the card, with no proof, no missing values and no prediction: "
              + "; ".join(least) + " LinearRegression. A card's conditions need an element-wise pass over the input "
              "and a reduction; LinearRegression's graph is the reduction alone."]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    onnx_main("onnx-floor", __doc__.splitlines()[0], run, section)
