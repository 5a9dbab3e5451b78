"""``scorecard predict`` in columns (scorecard/vectorised.py) writes what the runtime writes.

Every case scores one file twice, with ``vectorised.score_file`` and with the runtime's
``score_csv`` (the reference users vendor), and compares the bytes written, or the error
and the rows written before it. No score is written down here: 14a may change what a score
is; both sides follow the model.
"""
from __future__ import annotations

import csv
import io
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pytest
from scorecard.runtime import Input, Model, Target, Term, dumps, score_csv
from scorecard.runtime.errors import RowError
from scorecard.runtime.table import open_csv
from scorecard.trainer.data import columnar, csv_lines
from scorecard import vectorised
from scorecard.vectorised import score_file

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "exporters"))
from code_models import CASES, DATASETS  # noqa: E402
from numbers_table import READ, REFUSED  # noqa: E402


def both(model: Model, path: Path) -> tuple[tuple[str, str | None, object], tuple[str, str | None, object]]:
    """(output, error, counts) of the vectorised path and of the runtime on ``path``."""
    out = []
    for run in (lambda o: score_file(model, str(path), o),
                lambda o: score_csv(model, open_csv(str(path)), o, source=str(path))):
        sink, error, result = io.StringIO(), None, None
        try:
            result = run(sink)
        except RowError as exc:
            error = str(exc)
        out.append((sink.getvalue(), error, result))
    return out[0], out[1]


def same(model: Model, path: Path) -> str:
    vectorised, runtime = both(model, path)
    assert vectorised == runtime
    return vectorised[0]


def write_csv(path: Path, header: list[str], rows: list[list[str]], quoting: int = csv.QUOTE_MINIMAL) -> Path:
    with open(path, "w", newline="", encoding="utf-8") as fh:
        csv.writer(fh, lineterminator="\n", quoting=quoting).writerows([header, *rows])
    return path


def with_probability(model: Model, probability: dict) -> Model:
    return Model(model.kind, model.target, model.inputs, model.terms, model.intercept, model.missing, probability)


@pytest.mark.parametrize("case", sorted(CASES))
@pytest.mark.parametrize("probability", [None, {"method": "logistic", "scale": 0.7},
                                         {"method": "table", "table": [{"score": -1, "risk": 0.1},
                                                                       {"score": 0.5, "risk": 0.4},
                                                                       {"score": 2, "risk": 0.9}]}])
def test_every_dataset_model_scores_to_the_runtimes_bytes(case, probability):
    """Integer, float, categorical, M-of-N, imputing and unmet models on the real data."""
    make, data = CASES[case]
    output = same(with_probability(make(), probability), DATASETS / data)
    assert output.count("\n") > 100


def test_every_cell_of_the_number_grammar_reads_as_the_runtime_reads_it(tmp_path):
    """Each cell of tests/numbers_table.py, hostile whitespace included: the same score,
    int or float, and the same refusal with the same line."""
    model = Model("linear", Target("y", 1), (Input("a", "numeric"), Input("b", "numeric")),
                  (Term("a", "linear", None, 3, "a"), Term("b", ">=", 0.5, 2, "b")), -1)
    good = [cell for cell, value in READ.items() if value is not REFUSED]
    same(model, write_csv(tmp_path / "good.csv", ["a", "b"], [[cell, cell] for cell in good]))
    for k, cell in enumerate(cell for cell, value in READ.items() if value is REFUSED):
        path = write_csv(tmp_path / f"bad{k}.csv", ["a", "b"], [["1", "2"], ["a\nb", "3"], ["4", cell], ["5", "x"]])
        vectorised, runtime = both(model, path)
        assert vectorised == runtime and runtime[1] is not None, cell


def test_hostile_cells_pass_through_as_the_csv_module_writes_them(tmp_path):
    cells = ["plain", "a,b", 'say "hi"', "two\nlines", "carriage\rreturn", " padded ", "", "\u3000", "\x00nul",
             "=1+1", "é ü 中", "\u202eright-to-left", "'", '"', ",", "\r\n"]
    model = Model("linear", Target("y", 1), (Input("c", "categorical"), Input("n", "numeric")),
                  (Term("c", "in", ("a,b", "two\nlines", " padded "), 2, "c"), Term("c", "==", '"', 1, "q"),
                   Term("n", "<", 2, -1, "n")), 0, missing="unmet")
    rows = [[c, str(k % 4), c] for k, c in enumerate(cells)]
    output = same(model, write_csv(tmp_path / "h.csv", ["c", "n", "note, \"quoted\""], rows, csv.QUOTE_ALL))
    assert output.count("\n") > len(cells)


def test_float_points_make_a_float_score_only_where_they_count(tmp_path):
    """A float term that does not apply adds the int 0: the row's score stays an int."""
    model = Model("linear", Target("y", 1), (Input("a", "numeric"), Input("b", "numeric")),
                  (Term("a", ">=", 2, 1.5, "a"), Term("b", "linear", None, 2, "b")), 1)
    output = same(model, write_csv(tmp_path / "f.csv", ["a", "b"], [["1", "2"], ["3", "2"], ["1", "2.5"], ["1", "1e3"]]))
    assert {len(line.split(",")) for line in output.splitlines()} == {4}


def test_values_beyond_the_int_limit_are_floats_as_in_the_runtime(tmp_path):
    """docs/contract.md "numbers beyond 2^53": the int limit of a linear input."""
    model = Model("linear", Target("y", 1), (Input("a", "numeric"), Input("b", "binary")),
                  (Term("a", "linear", None, 3, "a"), Term("b", "==", 1, 7, "b")), -5)
    limit = model.int_limits["a"]
    values = [limit, limit + 1, -limit, -limit - 1, 2**53, 2**53 + 1, 4 * 10**17, "1e16", "-0", "0.0"]
    same(model, write_csv(tmp_path / "big.csv", ["a", "b"], [[str(v), str(k % 2)] for k, v in enumerate(values)]))


def test_a_row_missing_an_earlier_input_is_unscored_before_a_later_value_is_read(tmp_path):
    """The runtime reads the inputs in order and stops at the first missing one it needs."""
    model = Model("linear", Target("y", 1), (Input("a", "numeric"), Input("b", "numeric")),
                  (Term("a", "linear", None, 1, "a"), Term("b", "linear", None, 1, "b")), 0)
    output = same(model, write_csv(tmp_path / "o.csv", ["a", "b"], [["1", "2"], ["", "x"], ["3", "4"]]))
    assert output.endswith("3,4,7,1\n") or "x" in output
    vectorised, runtime = both(model, write_csv(tmp_path / "r.csv", ["b", "a"], [["x", ""]]))
    assert vectorised == runtime


def test_imputed_values_are_read_as_the_runtime_reads_them(tmp_path):
    model = Model("linear", Target("y", 1), (Input("a", "numeric"), Input("c", "categorical")),
                  (Term("a", "linear", None, 2, "a"), Term("c", "==", "red", 3, "red"), Term("a", ">=", 2, 1, "a2")),
                  -2, missing={"impute": {"a": 2.5, "c": "red"}})
    same(model, write_csv(tmp_path / "i.csv", ["a", "c"], [["", ""], ["1", "blue"], [" ", "red"], ["4", " "]]))


def test_many_batches_give_the_same_bytes_and_the_line_of_a_late_error(tmp_path, monkeypatch):
    """Batches of a few rows (a small block): the output does not depend on the batching,
    and an error far into the file names its line (rows spanning lines before it)."""
    monkeypatch.setattr(columnar, "BLOCK_SIZE", 256)
    model = Model("linear", Target("y", 1), (Input("a", "numeric"), Input("c", "categorical")),
                  (Term("a", "linear", None, 2, "a"), Term("c", "==", "x\ny", 1, "c")), -3)
    rows = [[str(k % 9), "x\ny" if k % 3 else "z"] for k in range(400)]
    same(model, write_csv(tmp_path / "many.csv", ["a", "c"], rows))
    vectorised, runtime = both(model, write_csv(tmp_path / "late.csv", ["a", "c"], rows + [["bad", "z"]]))
    assert vectorised == runtime and "line 668" in vectorised[1]


def test_a_file_pyarrow_refuses_is_refused_with_the_runtimes_message(tmp_path):
    model = Model("linear", Target("y", 1), (Input("a", "numeric"),), (Term("a", "linear", None, 2, "a"),), -3)
    ragged = tmp_path / "ragged.csv"
    ragged.write_text("a,b\n1,2\n3\n")
    not_utf8 = tmp_path / "bytes.csv"
    not_utf8.write_bytes(b"a,b\n1,2\n3,\xff\n")
    for path in (ragged, not_utf8):
        vectorised, runtime = both(model, path)
        assert vectorised == runtime and runtime[1] is not None


def test_parquet_scores_like_the_same_values_written_as_csv(tmp_path):
    """Parquet values are read as the text a CSV would hold (floats round-trip exactly)."""
    model = Model("linear", Target("y", 1), (Input("a", "numeric"), Input("c", "categorical")),
                  (Term("a", "linear", None, 1.5, "a"), Term("c", "==", "true", 1, "c")), -1)
    frame = pd.DataFrame({"a": [0.1, None, 3.0, 1e16, -2.5], "c": [True, False, True, None, False],
                          "note": ["x", "a,b", None, "q\"", ""]})
    frame.to_parquet(tmp_path / "d.parquet")
    sink = io.StringIO()
    score_file(model, str(tmp_path / "d.parquet"), sink)
    _, batches, _ = columnar.text_batches(str(tmp_path / "d.parquet"), "d")
    text = write_csv(tmp_path / "d.csv", ["a", "c", "note"], [list(r.values()) for b in batches for r in b.to_pylist()])
    reference = io.StringIO()
    score_csv(model, open_csv(str(text)), reference)
    assert sink.getvalue() == reference.getvalue()
    assert sink.getvalue().splitlines()[1].startswith("0.1,true,x,")


def test_a_refused_row_in_a_later_batch_stops_the_output_there(tmp_path, monkeypatch):
    """Batches are scored ahead in threads: a refusal in one batch writes the rows before it
    and nothing of the batches after it, as the runtime does."""
    monkeypatch.setattr(csv_lines, "RAW_BLOCK", 64)
    model = Model("linear", Target("y", 1), (Input("a", "numeric"),), (Term("a", "linear", None, 2, "a"),), -3)
    rows = [[str(k % 7)] for k in range(200)]
    rows[57] = ["x"]
    vectorised, runtime = both(model, write_csv(tmp_path / "late.csv", ["a"], rows))
    assert vectorised == runtime and "line 59" in vectorised[1]


def float_model(probability: dict | None = {"method": "logistic", "scale": 1.0, "center": 4}) -> Model:
    """Float scores (a float point on a linear input), a probability column, a needed input."""
    return Model("linear", Target("y", 1), (Input("a", "numeric"), Input("b", "numeric"), Input("c", "categorical")),
                 (Term("a", "linear", None, 1.5, "a"), Term("b", ">=", 2, 3, "b"), Term("c", "==", "red", 2, "c")),
                 -1, probability=probability)


def plain_rows(n: int) -> list[list[str]]:
    """Rows the line fast path writes from their own bytes: floats, an integral float score
    (a = 2 gives 3.0), a tiny probability (a = -30), an unscored row (a missing), text cells."""
    cells = ["0.25", "2", "-30", "", "1e3", "7", "-0.5", "123456789012.5"]
    return [[cells[k % len(cells)], str(k % 5), ["red", "blue", "x y", ""][k % 4], f"id{k}"] for k in range(n)]


@pytest.mark.parametrize("block", [64, 1 << 24])
def test_the_line_fast_path_writes_the_runtimes_bytes(tmp_path, monkeypatch, block):
    """Plain files (one row per line, no quotes) in blocks of a few rows and in one block."""
    monkeypatch.setattr(csv_lines, "RAW_BLOCK", block)
    path = write_csv(tmp_path / "plain.csv", ["a", "b", "c", "id"], plain_rows(300))
    _, batches, _ = csv_lines.line_batches(str(path), "plain.csv", (), ["a", "b", "c"])
    assert all(batch.block is not None for batch in batches)
    output = same(float_model(), path)
    assert "3.0," in output and "e-" in output and "\nid" not in output
    same(float_model(None), path)


@pytest.mark.parametrize("text", [
    "a,b,c,id\n1,2,red,x\n\n3,4,blue,y\n\n",  # blank lines, one at the end
    "a,b,c,id\r\n1,2,red,x\r\n3,4,blue,y\r\n",  # CRLF line ends
    "a,b,c,id\n1,2,red,x\n3,4,blue,y",  # no line break at the end
    "\ufeffa,b,c,id\n1,2,red,x\n",  # a byte order mark
    'a,b,"c",id\n1,2,red,x\n',  # a quoted header
    "a,b,c,id\n1,2,red,x\n3,4,blue,\"q,\"\"uoted\"\"\"\n5,6,\"two\nlines\",z\n7,8,red,w\n",  # quotes later on
    "a,b,c,id\n1,2,red,x\n3,4,blue,\r5\n",  # a bare carriage return
    "a,b,c,id\n" + "1,2,red," + "y" * 300 + "\n2,3,blue,z\n",  # a row longer than a block
    "a,b,c,id\n1,2,red,x\n3,4,blue\n",  # a ragged row
    "a,b,c,id\n1,2,red,x\n3,4,blue,\xff\n",  # not UTF-8 in a column the model does not read
    "a,b,c,id\n1,2,red,x\n3,x,blue,y\n",  # a value the runtime refuses
])
def test_every_file_the_line_fast_path_declines_reads_as_the_runtime_reads_it(tmp_path, monkeypatch, text):
    monkeypatch.setattr(csv_lines, "RAW_BLOCK", 32)
    path = tmp_path / "edge.csv"
    path.write_bytes(text.encode("latin-1") if "\xff" in text else text.encode("utf-8"))
    vectorised, runtime = both(float_model(), path)
    assert vectorised == runtime


def test_rows_written_to_a_file_are_the_runtimes_bytes(tmp_path):
    """A real file (the bytes are written under the text layer) and the same run into text."""
    path = write_csv(tmp_path / "plain.csv", ["a", "b", "c", "id"], plain_rows(50) + [["1", "2", "é ü 中", "z"]])
    reference = io.StringIO()
    score_csv(float_model(), open_csv(str(path)), reference)
    with open(tmp_path / "out.csv", "w", encoding="utf-8", newline="") as out:
        score_file(float_model(), str(path), out)
    assert (tmp_path / "out.csv").read_bytes() == reference.getvalue().encode("utf-8")


def plain_cells() -> list[str]:
    """The cells of tests/numbers_table.py that a CSV holds unquoted on one line."""
    return [cell for cell in READ if not any(c in cell for c in ',"\r\n')]


@pytest.mark.parametrize("block", [48, 1 << 24])
def test_numbers_read_as_floats_on_the_line_path_give_the_runtimes_bytes(tmp_path, monkeypatch, block):
    """Plain files whose numeric columns pyarrow reads straight to float64 where every cell of
    a block allows it (padded, blank, exponents, huge integers), and as text in the blocks
    with a cell it does not (Unicode spaces): the runtime's bytes either way; a refused cell
    in a late block stops the output at its line with the runtime's message."""
    monkeypatch.setattr(csv_lines, "RAW_BLOCK", block)
    good = [cell for cell in plain_cells() if READ[cell] is not REFUSED]
    rows = [[good[k % len(good)], str(k % 3), ["red", "blue"][k % 2], f"id{k}"] for k in range(3 * len(good))]
    path = write_csv(tmp_path / "n.csv", ["a", "b", "c", "id"], rows)
    _, batches, _ = csv_lines.line_batches(str(path), "n.csv", (), ["a", "b", "c"], frozenset({"a", "b"}))
    types = {batch.batch.column("a").type for batch in batches}
    assert types == ({pa.float64(), pa.string()} if block < 1000 else {pa.string()})  # one block: a Unicode space
    output = same(float_model(), path)
    assert output.count("\n") == len(rows) + 1
    for k, cell in enumerate(cell for cell in plain_cells() if READ[cell] is REFUSED):
        late = write_csv(tmp_path / f"bad{k}.csv", ["a", "b", "c", "id"], rows[:40] + [[cell, "1", "red", "z"]] + rows[:5])
        vectorised, runtime = both(float_model(), late)
        assert vectorised == runtime and "line 42" in runtime[1], cell


def test_predict_on_a_csv_file_does_not_import_pandas(tmp_path):
    """pyarrow imports pandas the first time it converts a Python object (seconds on a busy
    machine): scoring a CSV file converts none (trainer/data/arrow_values.py)."""
    path = write_csv(tmp_path / "plain.csv", ["a", "b", "c", "id"], plain_rows(300))
    model = tmp_path / "m.json"
    model.write_text(dumps(float_model()))
    code = ("import sys; from scorecard.cli import app; sys.argv = ['scorecard', 'predict', sys.argv[1], sys.argv[2], "
            "'-o', sys.argv[3]]\ntry:\n    app()\nexcept SystemExit as e:\n    assert not e.code, e.code\n"
            "print('pandas' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code, str(model), str(path), str(tmp_path / "out.csv")],
                          capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"
    reference = io.StringIO()
    score_csv(float_model(), open_csv(str(path)), reference)
    assert (tmp_path / "out.csv").read_text() == reference.getvalue()


@pytest.mark.parametrize("whole_range", [1, 1 << 16])
def test_probabilities_written_once_per_whole_score_are_the_runtimes(monkeypatch, whole_range):
    """Whole scores' probabilities are written once per score in their range and taken by row
    (or row by row when the range is wider than WHOLE_RANGE); a risk table's once per row of
    the table: the runtime's bytes, unscored rows included."""
    monkeypatch.setattr(vectorised, "WHOLE_RANGE", whole_range)
    for case in ("breastcancer", "mushroom", "unmet", "impute"):
        make, data = CASES[case]
        for probability in ({"method": "logistic", "scale": 0.7, "center": 1},
                            {"method": "table", "table": [{"score": -1, "risk": 1e-5}, {"score": 2, "risk": 0.9}]}):
            same(with_probability(make(), probability), DATASETS / data)


@pytest.mark.parametrize("block", [16, 40, 64, 100, 1 << 24])
def test_a_block_cut_near_a_quoted_cell_holding_line_breaks_reads_as_the_runtime_reads_it(tmp_path, monkeypatch, block):
    """The thread reading the file cuts it at line ends without knowing where rows end: from
    the first block with a double quote on, pyarrow's reader reads the rest, whatever line of
    the quoted cell the cut falls on, and the blocks before it are parsed in the scoring threads."""
    monkeypatch.setattr(csv_lines, "RAW_BLOCK", block)
    rows = [[str(k % 9), "red" if k % 2 else "blue", f"id{k}"] for k in range(60)]
    rows[23][2] = 'a "quoted"\nnote\n,over three lines'
    rows[41][1] = "red\nor blue"
    same(float_model(), write_csv(tmp_path / "q.csv", ["a", "c", "id"], [[r[0], "5", r[1], r[2]] for r in rows]))


@pytest.mark.parametrize("bad, where, written", [("3,4,blue\n", "line 152", 151), ("x,4,blue,y\n", "line 152", 151),
                                                 ("3,4,blue,\xff\n", "byte 2083", 0)])
def test_a_block_refused_in_the_middle_of_the_file_gives_the_runtimes_rows_and_error(tmp_path, monkeypatch, bad, where,
                                                                                      written):
    """Blocks are parsed in the scoring threads, several at once: one pyarrow refuses (a ragged
    row; bytes that are not UTF-8, which the runtime refuses before any row) or with a value the
    runtime refuses, in the middle of the file, gives the runtime's rows before it and its
    message; nothing of the blocks after it."""
    monkeypatch.setattr(csv_lines, "RAW_BLOCK", 64)
    lines = [f"{k % 7},{k % 3},{'red' if k % 2 else 'blue'},id{k}\n" for k in range(300)]
    path = tmp_path / "mid.csv"
    path.write_bytes(("a,b,c,id\n" + "".join(lines[:150]) + bad + "".join(lines[150:])).encode("utf-8")
                     .replace("\xff".encode("utf-8"), b"\xff"))
    vectorised, runtime = both(float_model(), path)
    assert vectorised == runtime and where in runtime[1]
    assert vectorised[0].count("\n") == written


def test_a_refused_block_leaves_no_output_file_and_a_one_line_error(cli, tmp_path, monkeypatch):
    """``predict -o``: a block pyarrow refuses in the middle of the file stops the command with
    the runtime's one-line message and exit code 2, and no output file (none half-written)."""
    monkeypatch.setattr(csv_lines, "RAW_BLOCK", 64)
    model = tmp_path / "m.json"
    model.write_text(dumps(float_model()))
    lines = [f"{k % 7},{k % 3},red,id{k}\n" for k in range(200)]
    data = tmp_path / "d.csv"
    data.write_text("a,b,c,id\n" + "".join(lines[:120]) + "1,2\n" + "".join(lines[120:]))
    run = cli("predict", model, data, "-o", tmp_path / "out.csv")
    assert run.code == 2 and run.err.count("\n") == 1 and "line 122" in run.err and "Traceback" not in run.err
    assert not (tmp_path / "out.csv").exists()


def test_tiny_huge_and_negative_zero_values_give_the_runtimes_floats(tmp_path, monkeypatch):
    """Probabilities of every layout repr has (1e-05.., e-07, e-300, 1.0, 0.0), float scores
    around them, -0.0 read as a value, and a risk table: the runtime's bytes."""
    monkeypatch.setattr(csv_lines, "RAW_BLOCK", 64)
    model = Model("linear", Target("y", 1), (Input("a", "numeric"),), (Term("a", "linear", None, 1.5, "a"),), 0,
                  probability={"method": "logistic", "scale": 1.0})
    cells = ["-0.0", "0", "-0", "-7.2", "-11.6", "-15", "-20.1", "-460", "-700", "-1e300", "1e300", "40", "700",
             "2e-320", "-3e-7", "1e16", "123456789012.5", "0.1"]
    path = write_csv(tmp_path / "t.csv", ["a"], [[c] for c in cells * 3])
    output = same(model, path)
    assert "e-05" in output and "e-07" in output and ",1.0\n" in output
    same(with_probability(model, {"method": "table", "table": [{"score": -1, "risk": 1e-7}, {"score": 0, "risk": 2.5e-5},
                                                               {"score": 3, "risk": 1.0}]}), path)
