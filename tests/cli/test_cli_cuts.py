"""Raw data in, a checklist out: numeric columns enter as cut-off conditions by default
(``--numeric cuts``), and the text card shows one condition a row with its points."""
from __future__ import annotations

import json

import numpy as np
import pandas as pd


def _raw_csv(path) -> str:
    """Blood glucose in its own units and an income in the thousands; the label is
    ``glu >= 140`` exactly, so the best model (one condition, no error) is found at any budget."""
    rng = np.random.default_rng(0)
    glu = rng.integers(70, 200, 60)
    income = rng.integers(83, 115, 60) * 100
    frame = pd.DataFrame({"glu": glu, "income": income, "diabetes": np.where(glu >= 140, "yes", "no")})
    frame.to_csv(path, index=False)
    return str(path)


def test_a_raw_csv_trains_to_a_card_of_conditions_with_points(cli, tmp_path):
    data = _raw_csv(tmp_path / "raw.csv")
    model = tmp_path / "m.json"
    run = cli("train", data, "--target", "diabetes", "--positive", "yes", "--c0", "0.01", "--time-limit", "120", "-o", str(model))
    assert run.code == 0, run.err
    terms = json.loads(model.read_text())["terms"]
    assert terms and all(t["op"] == ">=" for t in terms)  # no `glu × 1`
    assert any(t["input"] == "glu" and 130 <= t["value"] <= 140 for t in terms)
    out = tmp_path / "card.txt"
    assert cli("export", str(model), "--format", "text", "-o", str(out)).code == 0
    card = out.read_text()
    row = next(line for line in card.splitlines() if "glu >= " in line)
    assert "point" in row and "......" in row  # a condition, its points, a box to fill in
    assert "×" not in card


def test_numeric_linear_gives_the_linear_term_back(cli, tmp_path):
    data = _raw_csv(tmp_path / "raw.csv")
    model = tmp_path / "m.json"
    run = cli("train", data, "--target", "diabetes", "--positive", "yes", "--numeric", "linear", "--c0", "0.01", "--time-limit", "120",
              "-o", str(model))
    assert run.code == 0, run.err
    assert all(t["op"] == "linear" for t in json.loads(model.read_text())["terms"])


def test_numeric_per_column_in_toml_and_flags(cli, tmp_path):
    data = _raw_csv(tmp_path / "raw.csv")
    config = tmp_path / "c.toml"
    config.write_text('numeric = "linear"\n[numeric_by_input]\nglu = "cuts"\nincome = "cuts"\n')
    model = tmp_path / "m.json"
    run = cli("train", data, "--target", "diabetes", "--positive", "yes", "--config", str(config),
              "--numeric-for", "income=linear", "--c0", "0.01", "--time-limit", "120", "-o", str(model))
    assert run.code == 0, run.err
    params = json.loads(model.read_text())["training"]["params"]
    assert params["numeric"] == "linear" and params["numeric_by_input"] == {"glu": "cuts", "income": "linear"}
    bad = cli("train", data, "--target", "diabetes", "--positive", "yes", "--numeric", "steps", "-o", str(model))
    assert bad.code == 2 and "--numeric: 'steps' is not valid; use one of cuts, linear" in bad.err


def test_max_features_one_keeps_every_condition_on_one_column(cli, tmp_path):
    rng = np.random.default_rng(1)
    age = rng.integers(20, 90, 40)
    bp = rng.integers(60, 180, 40)
    y = np.where((age >= 40) & (age < 70), 1, 0)  # two cut-offs of one column explain it
    path = tmp_path / "band.csv"
    pd.DataFrame({"age": age, "bp": bp, "y": y}).to_csv(path, index=False)
    model = tmp_path / "m.json"
    run = cli("train", str(path), "--target", "y", "--max-features", "1", "--cuts", "age=40,70", "--c0", "0.01", "--time-limit", "120",
              "-o", str(model))
    assert run.code == 0, run.err
    terms = json.loads(model.read_text())["terms"]
    assert {t["input"] for t in terms} == {"age"} and len(terms) >= 2


def test_a_patient_number_and_a_visit_date_are_left_out_and_carried_through_predict(cli, tmp_path):
    """A raw export with a patient number and a date (a value per row each): train says it
    leaves them out, trains the card it trains without them, and predict carries them through."""
    data = _raw_csv(tmp_path / "plain.csv")
    frame = pd.read_csv(data)
    frame.insert(0, "patient", [f"P{100000 + k}" for k in range(len(frame))])
    frame["admitted"] = pd.date_range("2024-01-01", periods=len(frame), freq="D").strftime("%Y-%m-%d")
    raw = tmp_path / "raw.csv"
    frame.to_csv(raw, index=False)
    args = ("--target", "diabetes", "--positive", "yes", "--c0", "0.01", "--time-limit", "120")
    run = cli("train", raw, *args, "-o", tmp_path / "raw.json")
    plain = cli("train", data, *args, "-o", tmp_path / "plain.json")
    assert run.code == plain.code == 0, run.err
    assert [line for line in run.err.splitlines() if line.startswith("note: ")] == [
        f"note: column {name!r} is not used: 60 of its 60 values occur in one row only (an identifier, a date or free "
        "text?), and a condition met by one row tells nothing about the others" for name in ("patient", "admitted")]
    trained = json.loads((tmp_path / "raw.json").read_text())
    assert trained["terms"] == json.loads((tmp_path / "plain.json").read_text())["terms"]
    assert {i["name"] for i in trained["inputs"]} <= {"glu", "income"}
    scored = cli("predict", tmp_path / "raw.json", raw)
    assert scored.code == 0, scored.err
    assert scored.out.splitlines()[1].startswith("P100000,")


def test_a_ward_of_four_rows_is_no_condition_until_min_level_rows_allows_it(cli, tmp_path):
    """15 wards of 4 rows each; the 4 rows of ward W0 had the outcome whatever their glucose. The
    card would buy a 'ward = W0' condition for them; 4 rows are not evidence, so the plain command
    says why it offers none, and --min-level-rows 4 lets the user overrule (that the card then
    buys it, under a deterministic work limit: tests/trainer/test_fit.py)."""
    frame = pd.read_csv(_raw_csv(tmp_path / "plain.csv"))
    frame["ward"] = [f"W{k // 4}" for k in range(len(frame))]
    frame.loc[frame["ward"] == "W0", "diabetes"] = "yes"
    assert (frame["glu"][frame["ward"] == "W0"] < 140).any()  # W0 is not glu >= 140 again
    raw = tmp_path / "wards.csv"
    frame.to_csv(raw, index=False)
    args = ("--target", "diabetes", "--positive", "yes", "--c0", "0.01", "--time-limit", "120")
    run = cli("train", raw, *args, "-o", tmp_path / "m.json")
    assert run.code == 0, run.err
    assert "note: column 'ward': all its 15 levels are held by fewer than 10 rows each" in run.err
    assert "ward" not in {t["input"] for t in json.loads((tmp_path / "m.json").read_text())["terms"]}
    allowed = cli("train", raw, *args, "--min-level-rows", "4", "-o", tmp_path / "w.json")
    assert allowed.code == 0 and "note: column 'ward'" not in allowed.err
    assert json.loads((tmp_path / "w.json").read_text())["training"]["params"]["min_level_rows"] == 4


def _codes_csv(path) -> str:
    """Race coded 1, 2, 3 (as R's birthwt codes it) and a plain number; the outcome is race 2
    exactly, which no cut-off (``race >= 2`` also holds for 3) and no ``points × race`` scores."""
    rng = np.random.default_rng(4)
    race = rng.choice([1, 2, 3], 90)
    frame = pd.DataFrame({"race": race, "lwt": rng.integers(90, 250, 90), "ward": rng.choice(["4B", "5A"], 90),
                          "low": np.where(race == 2, "yes", "no")})
    frame.to_csv(path, index=False)
    return str(path)


def test_levels_read_a_code_column_as_one_condition_per_code_and_every_export_agrees(cli, tmp_path):
    data = _codes_csv(tmp_path / "codes.csv")
    model = tmp_path / "m.json"
    base = ("train", data, "--target", "low", "--positive", "yes", "--c0", "0.01", "--work-limit", "1")
    run = cli(*base, "--numeric-for", "race=levels", "-o", str(model))
    assert run.code == 0, run.err
    doc = json.loads(model.read_text())
    assert doc["training"]["train_error"] == 0 and doc["training"]["status"] == "optimal"
    assert [(t["input"], t["op"], t["value"], t["label"]) for t in doc["terms"]] == [("race", "==", 2, "race = 2")]
    assert [i["type"] for i in doc["inputs"] if i["name"] == "race"] == ["numeric"]  # a warehouse's INTEGER column
    card = tmp_path / "card.txt"
    assert cli("export", str(model), "--format", "text", "-o", str(card)).code == 0
    assert "race = 2" in card.read_text()
    run = cli("verify", str(model), "--data", data)
    assert run.code == 0, run.out + run.err
    assert "differ" not in run.out and run.out.count(" ok: ") >= 4  # sqlite, duckdb, onnx, python at least
    # without levels the codes are a number: race within +-10 enters as points × race, which misses race 2
    plain = tmp_path / "plain.json"
    assert cli(*base, "-o", str(plain)).code == 0
    assert json.loads(plain.read_text())["training"]["train_error"] > 0


def test_numeric_for_refuses_what_it_cannot_honour(cli, tmp_path):
    data = _codes_csv(tmp_path / "codes.csv")
    model = tmp_path / "m.json"
    base = ("train", data, "--target", "low", "--positive", "yes", "--work-limit", "1", "-o", str(model))
    run = cli(*base, "--numeric-for", "ward=cuts")
    assert run.code == 2 and run.err.count("\n") == 1
    assert "numeric_by_input.ward: 'ward' is a text column, one condition per level; --numeric-for ward=cuts" in run.err
    run = cli(*base, "--numeric-for", "race=levels", "--cuts", "race=2")
    assert run.code == 2 and "--numeric-for: 'race=levels' is not valid; use race=cuts for a column --cuts names" in run.err
    run = cli(*base, "--numeric-for", "race=bins")
    assert run.code == 2 and "use COL=cuts, COL=linear or COL=levels" in run.err
    assert not model.exists()
