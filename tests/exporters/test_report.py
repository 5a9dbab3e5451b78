"""The report and drift pages as a user meets them: printed by headless Chromium on one
sheet, self-contained, showing the numbers ``runtime.validation`` computed, hostile names
as text. Data are drawn from each model with a fixed seed (labels from the model's own
score), so every model of paper_models meets rows that reach its conditions."""
from __future__ import annotations

import csv
import io
import math
import random
import unicodedata
from dataclasses import dataclass, replace

import pytest
from engines import Elements, chromium, pdf_info, pdf_text, squash
from paper_models import HOSTILE, breastcancer, diabetes_unmet, hostile, long_card, m_of_n, sleep_apnea
from scorecard.exporters.layout import card
from scorecard.exporters.report import ROC_POINTS, _thin, drift_lines, page_interval, percent, render_drift, render_report
from scorecard.runtime import Input, Model, Target, Term, Training, risk, score
from scorecard.runtime.names import visible
from scorecard.runtime.table import csv_records
from scorecard.runtime.validation import drift, read_sample, validate

MODELS = {"breastcancer": breastcancer, "m_of_n": m_of_n, "sleep_apnea": sleep_apnea, "long_card": long_card,
          "hostile": hostile, "diabetes_unmet": diabetes_unmet}


def _value(model: Model, name: str, rng: random.Random, shift: int) -> object:
    inp = model.input(name)
    if rng.random() < 0.05 + 0.1 * shift:
        return ""
    if inp.type == "binary":
        return rng.choice([0, 1])
    if inp.type == "categorical":
        return rng.choice(list(inp.categories or ()) + ["zzz"])
    cuts = [t.value for t in model.terms if t.input == name and isinstance(t.value, (int, float))]
    if not cuts:
        return rng.randint(0, 10) + shift
    return rng.choice(cuts) + rng.choice([-1, 0, 1]) + shift


def data_csv(model: Model, seed: int, rows: int = 300, shift: int = 0) -> str:
    """CSV text of ``rows`` rows drawn for ``model``: the outcome drawn from sigmoid(score)."""
    rng = random.Random(seed)
    names = [i.name for i in model.inputs]
    positive = str(model.target.positive)
    negative = "0" if positive == "1" else f"not {positive}"
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(names + [model.target.name])
    for _ in range(rows):
        row = {name: _value(model, name, rng, shift) for name in names}
        s = score(model, row)
        p = 0.5 if s is None else 1 / (1 + math.exp(-max(-30.0, min(30.0, s / 3))))
        writer.writerow([row[n] for n in names] + [positive if rng.random() < p else negative])
    return out.getvalue()


def sample(model: Model, text: str, source: str):
    header, records = csv_records(io.StringIO(text), source)
    return read_sample(model, header, records, source)


@dataclass(frozen=True)
class Page:
    html: str
    pages: int
    text: str
    dom: Elements


def _print(tmp, name: str, html: str) -> Page:
    path = tmp / f"{name}.html"
    path.write_text(html, encoding="utf-8")
    pdf = tmp / f"{name}.pdf"
    dom = chromium(path, pdf, [], tmp / "profile")
    return Page(html, int(pdf_info(pdf)["Pages"]), pdf_text(pdf), Elements(dom))


@pytest.fixture(scope="session")
def pages(tmp_path_factory: pytest.TempPathFactory):
    folder = tmp_path_factory.mktemp("report")
    done: dict[str, tuple] = {}

    def get(name: str):
        if name not in done:
            model = MODELS[name]()
            base, cur = sample(model, data_csv(model, 1), "base.csv"), sample(model, data_csv(model, 2, shift=1), "cur.csv")
            v, d = validate(model, base), drift(model, base, cur)
            done[name] = (model, v, d, _print(folder, f"{name}-report", render_report(model, v, "base.csv")),
                          _print(folder, f"{name}-drift", render_drift(model, d)))
        return done[name]

    return get


def narrow(text: str) -> str:
    """``squash`` without wide (CJK, emoji) characters, which pdftotext places out of order."""
    return "".join(c for c in squash(text) if unicodedata.east_asian_width(c) not in "WF")


@pytest.mark.parametrize("name", MODELS)
def test_report_and_drift_page_each_print_on_one_page(pages, name):
    _, _, _, report, drift_page = pages(name)
    assert (report.pages, drift_page.pages) == (1, 1)


@pytest.mark.parametrize("name", MODELS)
def test_report_shows_the_card_and_the_validation_numbers(pages, name):
    model, v, _, report, _ = pages(name)
    text = narrow(report.text)
    c = card(model)
    assert narrow(c.title) in text
    for row in c.rows:
        assert narrow(row.condition({">=": "\u2265"})) in text
    for shown in (page_interval(v.auc), page_interval(v.confusion.sensitivity, True),
                  page_interval(v.confusion.specificity, True), page_interval(v.outcome, True)):
        assert narrow(shown) in text
    m = v.confusion
    assert narrow(f"predicted {m.tp} {m.fp}") in text and narrow(f"not predicted {m.fn} {m.tn}") in text
    for i in v.inputs:
        assert narrow(f"{visible(i.name)} {i.missing}") in text
    assert report.html.count("<svg") == (4 if model.probability else 3)  # ROC, calibration, scores, decision curve


@pytest.mark.parametrize("name", MODELS)
def test_drift_page_shows_every_items_psi(pages, name):
    model, _, d, _, page = pages(name)
    text = narrow(page.text)
    for s in d.shifts:
        shown = "score" if s.kind == "score" else visible(s.name)
        assert narrow(f"{shown} {s.psi:.3f} {s.band}") in text
    assert page.html.count("<svg") == len(d.shifts) + 1 + (1 if model.probability else 0)
    lines = drift_lines(d)
    for s in d.shifts:  # one line per item on stdout, too
        shown = "score" if s.kind == "score" else f"input {visible(s.name)}"
        assert [line for line in lines if line.startswith(f"{shown}: PSI")] == [f"{shown}: PSI {s.psi:.3f} ({s.band})"]
    for name in d.missing:
        assert sum(line.startswith(f"missing {visible(name)}: ") for line in lines) == 1


@pytest.mark.parametrize("name", ["breastcancer", "hostile"])
def test_pages_make_no_network_reference(pages, name):
    for page in pages(name)[3:]:
        lowered = page.html.lower()
        for needle in ("http", "src=", "href=", "url(", "@import", "//"):
            assert needle not in lowered


def test_hostile_names_print_as_text_and_never_run(pages):
    _, _, _, report, page = pages("hostile")
    for printed in (report, page):
        text = squash(printed.text)
        assert squash('</script><script>alert("x")</script>') in text
        for dom in (Elements(printed.html), printed.dom):
            scripts = [attrs for tag, attrs in dom.tags if tag == "script"]
            assert all(attrs.get("id") in ("scorecard-model", None) for attrs in scripts)
            assert len(scripts) == (2 if printed is report else 0)  # the card's model block and calculator
    charts = page.html[page.html.index("<svg"):]
    assert HOSTILE not in page.html and "num&lt;/script&gt;&lt;script&gt;" in charts  # escaped in the SVG too


@pytest.mark.parametrize("name", ["long_card", "hostile"])
def test_pages_print_on_one_a4_sheet_too(pages, tmp_path, name):
    """Chromium prints on Letter unless the page asks otherwise: ask for A4 (narrower, taller)."""
    for k, page in enumerate(pages(name)[3:]):
        a4 = page.html.replace("</style>", "@page { size: A4; }\n</style>", 1)
        printed = _print(tmp_path, f"{name}-{k}-a4", a4)
        assert printed.pages == 1


def test_a_roc_curve_of_many_scores_is_drawn_through_a_few_hundred_points():
    points = [(k / 9999, (k / 9999) ** 0.5) for k in range(10000)]
    drawn = _thin(points)
    assert len(drawn) <= ROC_POINTS + 1 and drawn[0] == points[0] and drawn[-1] == points[-1]
    assert _thin(points[:3]) == points[:3]


def test_report_by_group_prints_each_groups_numbers_on_the_sheets_after_the_first(tmp_path):
    """``report --by site``: the first sheet as without it, then a table of each group's numbers,
    the group too small for an estimate saying so in words, and the row of all rows."""
    model = sleep_apnea()
    rng = random.Random(4)
    rows = list(csv.reader(io.StringIO(data_csv(model, 1, rows=600))))
    names = rows[0][:-1]
    out = [rows[0] + ["site"]]
    positive = str(model.target.positive)
    for cells in rows[1:]:  # the outcome drawn from the model's own risk, so both classes are common
        p = risk(model, score(model, dict(zip(names, cells))))
        outcome = (positive if rng.random() < p else f"not {positive}") if p is not None else cells[-1]
        out.append(cells[:-1] + [outcome, "tiny" if len(out) > len(rows) - 3 else rng.choice(["north", "south"])])
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\n").writerows(out)
    text = buffer.getvalue()
    header, records = csv_records(io.StringIO(text), "sites.csv")
    v = validate(model, read_sample(model, header, records, "sites.csv", "required", ["site"]), ["site"])
    page = _print(tmp_path, "by-site", render_report(model, v, "sites.csv"))
    first, second = page.text.split("\f")[:2]
    assert page.pages == 2 and "BY GROUP" not in first and "BY GROUP" in second
    (table,) = v.subgroups
    assert [g.label for g in table.groups] == ["north", "south", "tiny"]
    shown = narrow(second)
    for g in table.groups[:2] + (table.overall,):
        assert g.too_few == {}
        for interval in (g.auc, g.tpr, g.fpr, g.outcome):
            value, _, rest = page_interval(interval, interval is not g.auc).partition(" (")
            assert narrow(value) in shown and narrow(rest.rstrip(")")) in shown
        assert narrow(f"{g.brier:.3f}") in shown
    assert narrow("too few rows with the outcome") in shown and table.groups[2].auc is None
    assert narrow(f"all rows {v.rows}") in shown


def test_report_draws_the_decision_curve_and_lists_its_net_benefit(pages):
    model, v, _, report, _ = pages("sleep_apnea")
    assert 'class="chart decision"' in report.html and 'aria-label="Decision curve: net benefit"' in report.html
    table = report.html[report.html.index('id="decision"'):]
    table = table[:table.index("</table>")]
    at = {round(p.threshold, 2): p for p in v.decision}
    for t in (0.05, 0.1, 0.5, 0.8):
        p = at[t]
        assert f"<td>{round(100 * t)}%</td><td class=\"num\">{p.treat_all:.4f}</td><td class=\"num\">{p.card:.4f}</td>" \
               f"<td class=\"num\">{p.risk:.4f}</td><td class=\"num\">0</td>" in table


def test_a_model_trained_under_limits_reports_each_on_training_and_on_the_data_on_one_sheet(tmp_path):
    """Two limits on the model's own 'female' column: the recorded training values beside the
    values counted on the report's data, the page still one sheet."""
    model = sleep_apnea()
    records = ({"rate": "fpr", "column": "female", "group": 1, "max": 0.3, "limit": "fpr[female=1] <= 0.3",
                "groups": [{"group": 1, "count": 12, "rows": 50}], "value": 0.24, "met": True},
               {"rate": "tpr", "column": "female", "gap": 0.1, "limit": "tpr[female] gap <= 0.1",
                "groups": [{"group": 0, "count": 80, "rows": 100}, {"group": 1, "count": 40, "rows": 50}],
                "value": 0.0, "met": True})
    model = replace(model, training=Training("cbc", "optimal", 0.2, 0.2, 0.0, 1.0, 0.2, 150, limits=records))
    text = data_csv(model, 3, rows=400)
    header, rows = csv_records(io.StringIO(text), "base.csv")
    v = validate(model, read_sample(model, header, rows, "base.csv", "required", ["female"]))
    first, second = v.limits
    assert sorted(g.group for g in second.data.groups) == [0, 1] and [g.group for g in first.data.groups] == [1]
    page = _print(tmp_path, "limits", render_report(model, v, "base.csv"))
    assert page.pages == 1
    shown = narrow(page.text)
    assert narrow("fpr[female=1] <= 0.3") in shown and narrow("0.240 (met)") in shown
    verdict = "met" if second.data.met else "NOT met"
    assert narrow(f"{second.data.value:.3f} ({verdict})") in shown
    for g in first.data.groups:
        assert narrow(f"{percent(g.rate)} ({g.count} of {g.rows})") in shown


def test_a_recalibrated_model_reports_its_risks_before_and_after_on_one_sheet(tmp_path):
    from scorecard.trainer.recalibrate import recalibrated

    model = Model(kind="linear", target=Target("event", "yes"),
                  inputs=(Input("age", "numeric"), Input("bp", "numeric"), Input("smoker", "binary")),
                  terms=(Term("age", ">=", 60, 2, ""), Term("bp", ">=", 140, 2, ""), Term("smoker", "==", 1, 1, "")),
                  intercept=-3, missing="null", probability={"method": "table", "table": [
                      {"score": s, "risk": r} for s, r in enumerate((0.02, 0.05, 0.1, 0.2, 0.3, 0.4))]})
    data = tmp_path / "local.csv"
    data.write_text(data_csv(model, 5, rows=400), encoding="utf-8")
    header, rows = csv_records(io.StringIO(data.read_text(encoding="utf-8")), "local.csv")
    new = recalibrated(model, read_sample(model, header, rows, "local.csv", "required"), str(data), site="clinic 2")
    header, rows = csv_records(io.StringIO(data.read_text(encoding="utf-8")), "local.csv")
    v = validate(new, read_sample(new, header, rows, "local.csv", "required"))
    page = _print(tmp_path, "refit", render_report(new, v, "local.csv"))
    assert page.pages == 1
    shown = narrow(page.text)
    assert narrow("RECALIBRATED RISKS") in shown and narrow("Refitted on") in shown and narrow("(clinic 2)") in shown
    before, after = v.refit.before, v.refit.after
    assert narrow(f"{before.brier:.4f} {after.brier:.4f}") in shown
    assert narrow(page_interval(after.recalibration.slope, digits=2)) in shown
    assert 'data-name="x"' not in page.html and "before the refit" in page.html  # the chart's two series
