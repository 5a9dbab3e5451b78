"""--c0 auto through the command line, the honest words about optimality, and the warnings.

Nothing here depends on the clock: every model is small (each fit proven at once, the time limit
only a safety net) or built by hand.
"""
from __future__ import annotations

import dataclasses

import json

import pytest
from scorecard.cli import summary
from scorecard.exporters.html import render_html
from scorecard.exporters.latex import render_latex, tex
from scorecard.exporters.text import render_text
from scorecard.runtime import Input, Model, Target, Term, Training, dump, load
from scorecard.trainer.folds import c0_grid
from testdata import SHARED

TINY = "y,a,b\n" + "".join(f"{int(a or b)},{a},{b}\n" for a in (0, 1) for b in (0, 1) for _ in range(5))
# 120 rows, three binary inputs, y = a or b with every 7th label flipped: five folds of distinct
# rows few enough that each fit is proven at once, noisy enough that C0 matters
NOISY = "y,a,b,c\n" + "".join(f"{int(a or b) ^ (k % 7 == 0)},{a},{b},{c}\n"
                               for k, (a, b, c) in enumerate((k // 4 % 2, k // 2 % 2, k % 2) for k in range(120)))


def test_auto_writes_the_selection_and_show_prints_it(cli, write, tmp_path):
    out = tmp_path / "m.json"
    run = cli("train", write("noisy.csv", NOISY), "--target", "y", "--time-limit", "600", "-o", out)
    assert run.code == 0, run.err
    raw = json.loads(out.read_text())["training"]
    selection = raw["selection"]
    assert selection["method"] == "cv" and selection["folds"] == 5 and selection["rule"] == "one standard error"
    grid = [p["c0"] for p in selection["grid"] if "c0" in p]
    assert grid == list(c0_grid(120)) and selection["chosen"] in grid
    # plain SLIM: the logistic-loss cards of each size compete too (trainer/logistic_cv.py)
    assert [p["items"] for p in selection["grid"] if p.get("loss") == "logistic"] == [1, 2, 3]
    assert raw["params"]["c0"] == selection["chosen"]
    assert f"C0 = {selection['chosen']:.3g} (5-fold CV)" in run.err
    shown = cli("show", out).out
    assert "HOW THE CARD WAS CHOSEN (5-fold cross-validation, the one standard error rule)" in shown
    assert shown.count("<- chosen") == 1
    assert len([ln for ln in shown.splitlines() if " ± " in ln]) == len(selection["grid"])
    assert "logistic 3" in shown


def test_a_chosen_logistic_card_says_so_in_the_summary_show_and_cards(cli, tmp_path):
    """bankruptcy: the two-item logistic-loss card's CV error beats every 0-1 card of the grid
    by more than a standard error; then the exact program of its loss proves it optimal (six
    design columns): the user reads that it is a logistic-loss card, and proven."""
    out = tmp_path / "m.json"
    run = cli("train", SHARED / "bankruptcy.csv", "--target", "NotBankrupt", "--time-limit", "600", "-o", out)
    assert run.code == 0, run.err
    assert "logistic-loss card of 2 items (5-fold CV)" in run.err and "| proven optimal |" in run.err
    selection = json.loads(out.read_text())["training"]["selection"]
    assert selection["loss"] == "logistic" and selection["items"] == 2
    shown = cli("show", out).out
    assert "status       optimal" in shown and "logistic path + cutting planes" in shown and "logistic 2" in shown
    html = cli("export", out, "--format", "html", "-o", tmp_path / "m.html")
    assert html.code == 0, html.err
    page = (tmp_path / "m.html").read_text()
    assert "logistic-loss card of 2 items (FasterRisk" in page and "Proven optimal" in page


def _table(out: str) -> list[str]:
    """The rows of cv's table (before the candidates' block and the recommendation)."""
    return [line for line in out.split("\n\n")[0].splitlines()[1:] if not line.startswith("recommended:")]


def test_cv_without_a_grid_compares_the_auto_grid_and_recommends_one(cli, write):
    data = write("tiny.csv", TINY)
    run = cli("cv", data, "--target", "y", "--folds", "2", "--time-limit", "600")
    assert run.code == 0, run.err
    assert {line.split()[0] for line in _table(run.out)} == {f"{c:.4g}" for c in c0_grid(20)}
    assert {line.split()[1] for line in _table(run.out)} == {"1", "2", "all"}  # --folds 2
    assert run.out.splitlines()[-1].startswith("recommended: the 0-1-loss card at C0 = ")


def test_cv_recommends_the_card_train_chooses_logistic_cards_included(cli, tmp_path):
    """bankruptcy: train's --c0 auto chooses the 2-item logistic-loss card. cv, on the same
    folds, compares the same candidates (the 0-1 grid and the logistic cards), prints the block
    show prints for the trained model, number for number, and recommends that card, not a C0."""
    data = SHARED / "bankruptcy.csv"
    plot = tmp_path / "cv.svg"
    run = cli("cv", data, "--target", "NotBankrupt", "--time-limit", "600", "--plot", plot)
    assert run.code == 0, run.err
    svg = plot.read_text()  # the logistic-loss cards are a third line of the plot
    assert 'data-name="logistic, test"' in svg and "<title>logistic 2</title>" in svg
    last = run.out.splitlines()[-1]
    assert last.startswith("recommended: the logistic-loss card of 2 items") and "train with --c0 auto" in last
    assert {line.split()[0] for line in _table(run.out)} == {f"{c:.4g}" for c in c0_grid(250)}

    out = tmp_path / "m.json"
    assert cli("train", data, "--target", "NotBankrupt", "--time-limit", "600", "-o", out).code == 0

    def block(text: str) -> str:
        return text[text.index("HOW THE CARD WAS CHOSEN"):].split("dealings of the folds")[0]

    assert block(run.out) == block(cli("show", out).out)
    assert "logistic 2       0.6% ± 0.3%    2.0            0.4%  <- chosen" in block(run.out)


def test_cv_with_a_grid_compares_those_c0s_only(cli):
    run = cli("cv", SHARED / "bankruptcy.csv", "--target", "NotBankrupt", "--c0-grid", "0.01,0.05",
              "--time-limit", "600")
    assert run.code == 0, run.err
    assert {line.split()[0] for line in _table(run.out)} == {"0.01", "0.05"}
    assert "logistic" not in run.out and "HOW THE CARD" not in run.out
    last = run.out.splitlines()[-1]
    assert last.startswith("recommended: C0 = ") and "--c0 auto" not in last


def test_an_old_model_file_without_selection_reads_unchanged(tmp_path):
    model = _model(_training("optimal", 0.0))
    dump(model, tmp_path / "m.json")
    assert "selection" not in json.loads((tmp_path / "m.json").read_text())["training"]
    assert load(str(tmp_path / "m.json")) == model


def _model(training: Training | None) -> Model:
    return Model("linear", Target("y", 1), (Input("a", "numeric"),), (Term("a", "linear", None, 2, "a"),), -5,
                 training=training)


def _training(status: str, gap: float, **extra) -> Training:
    bound = 0.1 * (1 - gap)
    return Training(solver="auto:highs", status=status, objective=0.1, lower_bound=bound, gap=gap, seconds=60.2,
                    train_error=0.08, n_rows=683, params={"c0": 0.01}, **extra)


PROVEN = "proven optimal"
NOT_PROVEN = "best found in 60 s, not proven optimal: the optimum is at most 88.9% better"


@pytest.mark.parametrize("training, words, footer", [
    (_training("optimal", 0.0), PROVEN, "Proven optimal on 683 training rows (training error 8.0%)."),
    (_training("time_limit", 0.889), NOT_PROVEN,
     "Best found in 60 s on 683 training rows (training error 8.0%); the optimum is at most 89% better."),
    (_training("interrupted", 0.05), "stopped by Ctrl-C after 60 s, not proven optimal: the optimum is at most 5.0%",
     "Stopped by Ctrl-C after 60 s on 683 training rows (training error 8.0%); the optimum is at most 5.0% better."),
    (_training("time_limit", 1.0), "best found in 60 s, not proven optimal (no bound on the optimum was found)",
     "Best found in 60 s on 683 training rows (training error 8.0%); not proven optimal."),
])
def test_summary_show_and_cards_say_proven_or_how_far_from_proven(training, words, footer, tmp_path):
    """The summary line and show say it in full; the cards' footer says it plainly (issue 14
    item 7), e.g. "Best found in 60 s; the optimum is at most 12% better"."""
    model = _model(training)
    line = summary(model, "m.json")
    text = render_text(model)
    html = render_html(model)
    latex = render_latex(model)
    assert words in line and words in text and footer in html
    assert tex(footer) in latex
    for person in (line, html, latex):  # no bare solver words for a person
        assert "time_limit" not in person and "gap 0.889" not in person and "auto:highs" not in person
        assert "optimality gap" not in person
    assert "gap          0.889" in text or training.gap != 0.889  # show keeps the numbers beside the words


def test_a_stop_under_a_work_limit_says_so_where_the_flag_means_something():
    """The summary and show name --work-limit (the same model on any machine); a card's footer,
    read by a clinician, does not."""
    training = dataclasses.replace(_training("time_limit", 0.889), params={"c0": 0.01, "work_limit": 0.2})
    model = _model(training)
    words = "best found in 60 s under --work-limit 0.2, not proven optimal: the optimum is at most 88.9% better"
    assert words in summary(model, "m.json") and words in render_text(model)
    assert ("Best found in 60 s on 683 training rows (training error 8.0%); the optimum is at most 89% better."
            in render_html(model))
    assert "work-limit" not in render_html(model)
    logistic = dataclasses.replace(training, status="best_found")  # a logistic-loss card (runtime's BEST_FOUND)
    assert summary(_model(logistic), "m.json").count("best found in 60 s under --work-limit 0.2 by the logistic-loss "
                                                     "search, not proven optimal") == 1


def test_the_footer_names_the_chosen_c0():
    selection = {"method": "cv", "folds": 5, "rule": "one standard error", "chosen": 0.0086,
                 "grid": [{"c0": 0.0086, "test_error": 0.04, "se": 0.01, "size": 3.0, "train_error": 0.03}]}
    model = _model(_training("optimal", 0.0, selection=selection))
    assert "C0 = 0.0086, chosen by 5-fold cross-validation" in render_html(model)
    assert "C0 = 0.0086 (5-fold CV)" in summary(model, "m.json")


def test_weighted_errors_are_said_under_the_candidates():
    """--w-pos weighs the cross-validated errors: the model file records it and show says it."""
    from scorecard.trainer.folds import GridPoint
    from scorecard.trainer.select import Selection

    point = GridPoint(0.0086, 0.19, 0.01, 3.0, 0.18)
    record = Selection(folds=5, points=(point,), chosen=0.0086, w_pos=0.9).record()
    assert record["w_pos"] == 0.9 and "w_pos" not in Selection(folds=5, points=(point,), chosen=0.0086).record()
    shown = render_text(_model(_training("optimal", 0.0, selection=record)))
    assert "errors weighted by class (--w-pos): a positive row weighs 0.9, a negative one 0.1" in shown
    assert _load_back(record) == record


def _load_back(selection: dict) -> dict:
    """The selection as a model file holds it, read back by the runtime's checks."""
    from scorecard.runtime import dumps, loads

    return loads(dumps(_model(_training("optimal", 0.0, selection=selection)))).training.selection


def _warnings(err: str) -> list[str]:
    return [line for line in err.splitlines() if line.startswith("warning: ")]


def test_an_empty_model_is_a_warning_with_what_to_try(cli, write, tmp_path):
    run = cli("train", write("tiny.csv", TINY), "--target", "y", "--c0", "0.6", "-o", tmp_path / "m.json")
    assert run.code == 0, run.err
    (warning,) = _warnings(run.err)
    assert warning.startswith("warning: the model has no terms: at C0 = 0.6 no condition pays for itself")
    assert warning.endswith("try --c0 auto or a smaller --c0")


def test_a_model_no_better_than_the_majority_is_a_warning(cli, write, tmp_path):
    # b carries no signal; a one-term model that a sign forces onto b is no better than the majority
    data = write("noise.csv", "y,b\n" + "1,0\n" * 6 + "1,1\n" * 6 + "0,0\n" * 2 + "0,1\n" * 2)
    run = cli("train", data, "--target", "y", "--c0", "0", "--min-features", "1", "-o", tmp_path / "m.json")
    assert run.code == 0, run.err
    (warning,) = _warnings(run.err)
    assert warning.startswith("warning: the model's training error (25.0%) is no better than predicting the majority "
                              "class for every row (25.0%); try")


def test_a_numeric_column_too_large_for_the_intercept_range_is_a_warning(cli, write, tmp_path):
    rows = "".join(f"{int(k % 3 == 0)},{k % 2},{20000 + 1000 * k}\n" for k in range(30))
    run = cli("train", write("income.csv", "y,a,income\n" + rows), "--target", "y", "--c0", "0.01",
              "--numeric", "linear", "-o", tmp_path / "m.json")
    assert run.code == 0, run.err
    unusable = [w for w in _warnings(run.err) if "'income'" in w]
    assert unusable == ["warning: column 'income' could not be used: its values (20000 to 49000) times any "
                        "coefficient in -10..10 are beyond what an intercept in -100..100 can offset, so as a linear "
                        "term it cannot change a prediction; use threshold conditions (--numeric cuts) or a wider "
                        "--intercept-min/--intercept-max"]
    wide = cli("train", write("income2.csv", "y,a,income\n" + rows), "--target", "y", "--c0", "0.01",
               "--numeric", "linear", "--intercept-min", "-100000", "-o", tmp_path / "w.json")
    cuts = cli("train", write("income3.csv", "y,a,income\n" + rows), "--target", "y", "--c0", "0.01",
               "-o", tmp_path / "c.json")  # the default: threshold conditions, usable at any range
    assert cuts.code == 0 and not [w for w in _warnings(cuts.err) if "'income'" in w]
    assert not [w for w in _warnings(wide.err) if "'income'" in w]


def test_a_good_model_has_no_warning(cli, write, tmp_path):
    run = cli("train", write("tiny.csv", TINY), "--target", "y", "--c0", "0.01", "-o", tmp_path / "m.json")
    assert run.code == 0 and not _warnings(run.err) and PROVEN in run.err


def test_a_column_named_score_but_for_case_is_a_warning_when_training_and_refused_by_sql(cli, write, tmp_path):
    """A column ``Score`` (any case but ``score``'s own, which reading refuses): predict works,
    the sql export refuses the model, so training says so while renaming is cheap."""
    data = write("s.csv", TINY.replace("y,a,b", "y,Score,PREDICTION"))
    out = tmp_path / "m.json"
    run = cli("train", data, "--target", "y", "--c0", "0.01", "-o", out)
    assert run.code == 0, run.err
    assert sorted(_warnings(run.err)) == [
        f"warning: column {name!r} differs only in case from the column {added!r} that scoring adds: the sql export "
        "refuses this model; rename the column in the data and train again"
        for name, added in (("PREDICTION", "prediction"), ("Score", "score"))]
    assert cli("predict", out, data).code == 0
    sql = cli("export", out, "--format", "sql", "-o", tmp_path / "m.sql")
    assert sql.code == 2 and "clashes with the column" in sql.err and not (tmp_path / "m.sql").exists()
    plain = cli("train", write("t.csv", TINY), "--target", "y", "--c0", "0.01", "-o", tmp_path / "t.json")
    assert _warnings(plain.err) == []


RARE = "y,a\n" + "".join(f"{int(k % 40 == 0)},{k % 2}\n" for k in range(200))  # 2.5 % positive, a tells nothing


def test_an_empty_card_of_a_rare_outcome_names_w_pos_and_weights_silence_the_majority_warning(cli, write, tmp_path):
    data = write("rare.csv", RARE)
    run = cli("train", data, "--target", "y", "--c0", "0.01", "-o", tmp_path / "m.json")
    assert run.code == 0, run.err
    (warning,) = _warnings(run.err)
    assert warning.startswith("warning: the model has no terms")
    assert warning.endswith("it predicts not y = 1 for every row; the outcome is in 2.5% of the rows and predicting "
                            "it for a group of rows needs their risk above 50%: try --c0 auto or a smaller --c0, or "
                            "weigh it up with --w-pos 0.95, and a card flags the rows whose risk is above 5.0%")
    weighted = cli("train", data, "--target", "y", "--c0", "0.01", "--w-pos", "0.9", "-o", tmp_path / "w.json")
    assert weighted.code == 0, weighted.err
    assert not any("majority" in line or "rare outcome" in line for line in _warnings(weighted.err))
