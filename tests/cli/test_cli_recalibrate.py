"""``scorecard recalibrate MODEL --data LOCAL -o NEW.json`` from the command line: the new file
keeps the card, says in its history where and when its risks were refitted, ``show`` and the
printed card say so, ``report`` on LOCAL shows the calibration before and after, and ``verify``
passes; bad input exits 2 with one line and writes nothing."""
from __future__ import annotations

import json
import math
import random

import pytest
from scorecard.runtime import Input, Model, Target, Term, dump


@pytest.fixture
def model(tmp_path):
    card = Model(kind="linear", target=Target("event", 1),
                 inputs=(Input("age", "numeric"), Input("smoker", "binary")),
                 terms=(Term("age", ">=", 60, 2, ""), Term("smoker", "==", 1, 1, "")), intercept=-2, missing="null",
                 probability={"method": "table", "table": [{"score": s, "risk": r} for s, r in
                                                           enumerate((0.05, 0.1, 0.2, 0.35))]})
    path = tmp_path / "published.json"
    dump(card, str(path))
    return path


@pytest.fixture
def local(write):
    rng = random.Random(2)
    rows = ["age,smoker,event"]
    for _ in range(500):
        age, smoker = rng.randint(30, 90), rng.randint(0, 1)
        p = 1 / (1 + math.exp(-(-0.5 + 0.8 * (2 * (age >= 60) + smoker - 2))))
        rows.append(f"{age},{smoker},{int(rng.random() < p)}")
    return write("local.csv", "\n".join(rows) + "\n")


def test_recalibrate_writes_the_card_with_refitted_risks_and_says_so_everywhere(cli, model, local, tmp_path):
    new, page = tmp_path / "local.json", tmp_path / "report.html"
    run = cli("recalibrate", model, "--data", local, "--site", "St Mary's", "-o", new)
    assert run.code == 0, run.err
    assert run.err.startswith("recalibrated on 500 rows of local.csv: risk = 1 / (1 + exp(-(a + b (score - T)))), "
                              "T = 2 (the threshold), a ") and run.err.rstrip().endswith(f"-> {new}")
    before, after = json.loads(model.read_text()), json.loads(new.read_text())
    assert (after["terms"], after["intercept"]) == (before["terms"], before["intercept"])
    (entry,) = after["history"]
    assert entry["site"] == "St Mary's" and entry["previous"] == before["probability"] and entry["scored"] == 500
    assert after["probability"]["table"] != before["probability"]["table"]
    shown = cli("show", new).out
    assert "HISTORY" in shown and "recalibrated on 500 rows of local.csv, site St Mary's" in shown
    run = cli("report", new, "--data", local, "-o", page)
    assert run.code == 0, run.err
    html = page.read_text(encoding="utf-8")
    assert "Recalibrated risks" in html and 'id="refit"' in html and "before the refit" in html
    assert "Risks refitted on 500 rows of local.csv (St Mary&#39;s)" in html  # the card's footer


@pytest.mark.slow
def test_verify_passes_on_the_recalibrated_file(cli, model, local, tmp_path):
    new = tmp_path / "local.json"
    assert cli("recalibrate", model, "--data", local, "-o", new).code == 0
    run = cli("verify", new, "--data", local)
    assert run.code == 0, run.out
    assert "FAILED" not in run.out and " ok: " in run.out


def test_recalibrate_refuses_what_it_cannot_refit_with_one_line(cli, model, write, local, tmp_path):
    new = tmp_path / "new.json"
    cases = [
        (write("one.csv", "age,smoker,event\n70,1,1\n40,0,1\n"), "one.csv: the rows with a score hold one class of 'event'"),
        (write("none.csv", "age,smoker\n70,1\n"), "none.csv: no column 'event' (the model's outcome)"),
    ]
    for data, message in cases:
        run = cli("recalibrate", model, "--data", data, "-o", new)
        assert run.code == 2 and run.err.count("\n") == 1 and message in run.err, run.err
        assert not new.exists()
    run = cli("recalibrate", model, "--data", local, "-o", model)
    assert run.code == 2 and "is the input file" in run.err
    run = cli("recalibrate", model, "--data", local, "--site", " ", "-o", new)
    assert run.code == 2 and "--site: give the site a name" in run.err and not new.exists()
