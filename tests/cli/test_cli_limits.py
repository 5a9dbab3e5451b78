"""``train --limit`` from the command line and ``--config``: the card meets each limit, the model
file and ``show`` say so, ``report`` gives each limit's value on its data; limits that cannot
hold together exit 3 naming them, one that cannot be read exit 2."""
from __future__ import annotations

import json

import numpy as np
import pytest

#: Deterministic work, generous for these 300 rows (the time limit a safety net only).
WORK = "50"


@pytest.fixture
def data(write):
    rng = np.random.default_rng(11)
    lines = ["a,b,c,group,y"]
    for _ in range(300):
        a, b, c = rng.integers(0, 2, 3)
        group = "B" if rng.random() < 0.4 else "A"
        risk = 1.5 * a + b - c + (1.0 if group == "B" else 0.0) + rng.normal(0, 0.8)
        lines.append(f"{a},{b},{c},{group},{int(risk > 1.2)}")
    return write("clinic.csv", "\n".join(lines) + "\n")


def test_limits_from_flags_and_config_are_met_recorded_shown_and_reported(cli, data, write, tmp_path):
    config = write("limits.toml", 'limits = ["fpr[group=B] <= 0.2", {rate = "tpr", column = "group", gap = 0.1}]\n'
                                  "[coefficients]\ngroup = [0]\n")
    model, page = tmp_path / "m.json", tmp_path / "report.html"
    run = cli("train", data, "--target", "y", "--c0", "0.002", "--config", config, "--work-limit", WORK,
              "--time-limit", "300", "-o", model)
    assert run.code == 0, run.err
    assert "proven optimal" in run.err
    fitted = json.loads(model.read_text())
    assert [r["limit"] for r in fitted["training"]["limits"]] == ["fpr[group=B] <= 0.2", "tpr[group] gap <= 0.1"]
    assert all(r["met"] for r in fitted["training"]["limits"]) and fitted["training"]["solver"] == "cbc"
    assert all(t["input"] != "group" for t in fitted["terms"])
    shown = cli("show", model).out
    assert "limits=[fpr[group=B] <= 0.2; tpr[group] gap <= 0.1]" in shown
    assert f"limit        tpr[group] gap <= 0.1: {fitted['training']['limits'][1]['value']:.4g} on the training rows (met)" \
        in shown
    run = cli("report", model, "--data", data, "-o", page)
    assert run.code == 0, run.err
    html = page.read_text(encoding="utf-8")
    table = html[html.index('id="limits"'):]
    table = table[:table.index("</table>")]
    for record in fitted["training"]["limits"]:
        # the report's data is the training file: the same value on both sides
        assert table.count(f"{record['value']:.3f} (met)") == 2
    # the flags replace the file's limits
    run = cli("train", data, "--target", "y", "--c0", "0.002", "--config", config, "--limit", "positive_rate[group] "
              "gap <= 5%", "--work-limit", WORK, "--time-limit", "300", "-o", model)
    assert run.code == 0, run.err
    assert [r["limit"] for r in json.loads(model.read_text())["training"]["limits"]] == [
        "positive_rate[group] gap <= 0.05"]


def test_a_report_on_data_without_the_limits_column_says_so(cli, data, write, tmp_path):
    model, page = tmp_path / "m.json", tmp_path / "report.html"
    assert cli("train", data, "--target", "y", "--c0", "0.002", "--limit", "fpr[group] <= 0.3", "--coefficients",
               "group=0", "--work-limit", WORK, "--time-limit", "300", "-o", model).code == 0
    lines = data.read_text().splitlines()
    other = write("other.csv", "\n".join(",".join(line.split(",")[:3] + line.split(",")[4:]) for line in lines) + "\n")
    run = cli("report", model, "--data", other, "-o", page)
    assert run.code == 0, run.err
    assert "the data has no column &#39;group&#39;" in page.read_text(encoding="utf-8")


def test_limits_that_cannot_hold_together_exit_3_naming_them(cli, data, tmp_path):
    model = tmp_path / "m.json"
    run = cli("train", data, "--target", "y", "--c0", "0.002", "--limit", "fpr[group=A] <= 0", "--limit",
              "tpr[group=A] >= 1", "--limit", "tpr[group] gap <= 1", "--work-limit", "1", "--time-limit", "300",
              "-o", model)
    assert run.code == 3, run.err
    assert run.err.startswith("error: no model satisfies these constraints together: fpr[group=A] <= 0; "
                              "tpr[group=A] >= 1 (relax one of them)")
    assert not model.exists()


@pytest.mark.parametrize("args, message", [
    (["--limit", "fpr[group] < 0.1"], "--limit: 'fpr[group] < 0.1' is not a limit; write RATE[COL=VALUE] <= R"),
    (["--limit", "fnr[group] <= 0.1"], "--limit: 'fnr' in 'fnr[group] <= 0.1' is not a rate; use one of fpr, tpr, "
                                       "positive_rate"),
    (["--limit", "fpr[grup=A] <= 0.1"], "the data has no input column 'grup'; did you mean 'group'?"),
    (["--limit", "fpr[group=C] <= 0.1"], "column 'group' has no value 'C'"),
    (["--limit", "fpr[group] <= 0.1", "--loss", "logistic"], "--loss: limits constraints need the 0-1 loss"),
    (["--limit", "fpr[group] <= 0.1", "--solver", "cpsat"], "solver 'cpsat' is not available for this model"),
])
def test_a_limit_that_cannot_be_used_exits_2_with_one_line(cli, data, tmp_path, args, message):
    model = tmp_path / "m.json"
    run = cli("train", data, "--target", "y", "--c0", "0.01", *args, "--work-limit", "1", "-o", model)
    assert run.code == 2, run.err
    assert run.err.count("\n") == 1 and message in run.err, run.err
    assert not model.exists()
