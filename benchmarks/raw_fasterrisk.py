"""FasterRisk on one train/test split, for benchmarks/raw.py (run in FasterRisk's own venv).

    python raw_fasterrisk.py TRAIN.csv TEST.csv --target T --positive P --out RESULT.json

FasterRisk needs numpy<2, so benchmarks/raw.py runs this file with the Python of a separate
venv (``pip install fasterrisk 'numpy<2'``) and reads RESULT.json. The preparation is the
one FasterRisk users do: missing values imputed the simple way (median of the training rows
for a numeric column, mode for a text column), text columns one-hot encoded (one 0/1 column
per level seen in training), numeric columns with more than two values cut by FasterRisk's
own ``BinBinarizer`` (``col <= t`` for up to 100 thresholds sampled from the training values,
seed 0), 0/1 columns kept as they are. Then ``RiskScoreOptimizer(k, lb, ub)`` and the best
model of its pool (lowest logistic loss), scored on TEST with ``RiskScoreClassifier.predict``.
Seconds cover preparation and optimisation, not the interpreter start.
"""
from __future__ import annotations

import argparse
import contextlib
import importlib.metadata
import json
import sys
import time

import numpy as np
import pandas as pd


def prepare(train: pd.DataFrame, test: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame, dict]:
    from fasterrisk.binarization_util import BinBinarizer

    imputed = {}
    train, test = train.copy(), test.copy()
    for col in train.columns:
        if pd.api.types.is_numeric_dtype(train[col]):
            value = float(train[col].median())
        else:
            train[col] = train[col].astype("object")
            test[col] = test[col].astype("object")
            value = train[col].mode(dropna=True).iloc[0]
        if train[col].isna().any() or test[col].isna().any():
            imputed[col] = value
        train[col] = train[col].fillna(value)
        test[col] = test[col].fillna(value)
    numeric = [c for c in train.columns if pd.api.types.is_numeric_dtype(train[c])]
    binary = [c for c in numeric if set(np.unique(train[c])) <= {0, 1}]
    cut = [c for c in numeric if c not in binary]
    text = [c for c in train.columns if c not in numeric]
    parts_train, parts_test = [train[binary].astype(float)], [test[binary].astype(float)]
    for col in text:
        for level in sorted(train[col].astype(str).unique()):
            name = f"{col}={level}"
            parts_train.append((train[col].astype(str) == level).astype(float).rename(name).to_frame())
            parts_test.append((test[col].astype(str) == level).astype(float).rename(name).to_frame())
    if cut:
        binarizer = BinBinarizer(max_num_thresholds_per_feature=100, sampling_seed=0)
        binarizer.fit(train[cut])
        parts_train.append(binarizer.transform(train[cut])[0].astype(float).set_index(train.index))
        parts_test.append(binarizer.transform(test[cut])[0].astype(float).set_index(test.index))
    return pd.concat(parts_train, axis=1), pd.concat(parts_test, axis=1), imputed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("train")
    parser.add_argument("test")
    parser.add_argument("--target", required=True)
    parser.add_argument("--positive", required=True)
    parser.add_argument("--k", type=int, default=5)
    parser.add_argument("--lb", type=float, default=-10)
    parser.add_argument("--ub", type=float, default=10)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    from fasterrisk.fasterrisk import RiskScoreClassifier, RiskScoreOptimizer

    train = pd.read_csv(args.train, keep_default_na=False, na_values=[""])
    test = pd.read_csv(args.test, keep_default_na=False, na_values=[""])
    y_train = np.where(train.pop(args.target).astype(str) == args.positive, 1.0, -1.0)
    y_test = np.where(test.pop(args.target).astype(str) == args.positive, 1.0, -1.0)
    start = time.perf_counter()
    with contextlib.redirect_stdout(sys.stderr):  # FasterRisk prints progress
        X_train, X_test, imputed = prepare(train, test)
        optimizer = RiskScoreOptimizer(X=X_train.to_numpy(), y=y_train, k=args.k, lb=args.lb, ub=args.ub)
        optimizer.optimize()
        multiplier, intercept, coefficients = optimizer.get_models(model_index=0)
    seconds = time.perf_counter() - start
    classifier = RiskScoreClassifier(multiplier, intercept, coefficients)
    wrong = classifier.predict(X_test.to_numpy()) != y_test
    used = np.flatnonzero(coefficients)
    result = {
        "test_error": float(wrong.mean()),
        "train_error": float((classifier.predict(X_train.to_numpy()) != y_train).mean()),
        "items": int(len(used)),
        "seconds": seconds,
        "binary_features": int(X_train.shape[1]),
        "imputed": {k: (v.item() if hasattr(v, "item") else v) for k, v in imputed.items()},
        "card": {"multiplier": float(multiplier), "intercept": float(intercept),
                 "points": {str(X_train.columns[j]): float(coefficients[j]) for j in used}},
        "version": importlib.metadata.version("fasterrisk"),
        "numpy": np.__version__,
    }
    with open(args.out, "w", encoding="utf-8") as fh:
        json.dump(result, fh)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
