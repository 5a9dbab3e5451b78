"""A battery of hostile inputs (issue 12), one table: each case gives files, a command, the exit
code, a fragment of standard error, and the files it may create or change.

Every case runs in a fresh folder holding the standard files below (plus its own) and checks
the promise: the exit code; on failure one line ``error: ...`` on stderr and no traceback;
every file not listed in ``changes`` left exactly as it was (bytes and mode), and no file
created beside them (no temporary file left behind). To add a case, add a ``Case`` to CASES.
"""
from __future__ import annotations

import os
import stat
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import pytest
from scorecard.runtime import Input, Model, Target, Term, dumps
from scorecard.runtime.files import TMP_MARK

#: Training data: y depends on a; trains in well under a second.
TRAIN = "y,a,b\n" + "".join(f"{int(k % 7 > 2)},{k % 7},{k % 2}\n" for k in range(40))
MODEL = dumps(Model("linear", Target("y", 1), (Input("a", "numeric"), Input("b", "binary")),
                    (Term("a", ">=", 3, 2, "a >= 3"), Term("b", "linear", None, 1, "b")), -1))
#: Data the model scores.
DATA = "a,b\n1,0\n5,1\n"
STANDARD = {"train.csv": TRAIN, "m.json": MODEL, "d.csv": DATA}


@dataclass(frozen=True)
class Case:
    """One hostile input: ``files`` (name -> text, bytes, or a function of the folder making
    it) are added to the standard ones; ``args`` run in that folder."""

    id: str
    args: tuple[str, ...]
    code: int
    message: str
    files: dict = field(default_factory=dict)
    changes: tuple[str, ...] = ()  # files the command may create, change or remove
    patch: Callable | None = None  # patch(monkeypatch) before the run (e.g. a fake Ctrl-C)
    check: Callable | None = None  # check(folder) after the run: what else the user sees
    item: int | None = None  # the issue 12 item the case is about


def _symlink(target: str) -> Callable:
    return lambda path: path.symlink_to(target)


def _mode(name: str, mode: int) -> Callable:
    def check(folder: Path) -> None:
        assert stat.S_IMODE((folder / name).stat().st_mode) == mode

    return check


def _dead_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


STALE = f".o.csv{TMP_MARK}{_dead_pid()}-0badf00d"


def _interrupted_fit(monkeypatch) -> None:
    """The solver sees Ctrl-C: train returns the best model so far, status interrupted."""
    import dataclasses

    import scorecard.trainer.train as trainer

    real = trainer.train

    def fit(*args, **kwargs):
        model = real(*args, **kwargs)
        return dataclasses.replace(model, training=dataclasses.replace(model.training, status="interrupted"))

    monkeypatch.setattr(trainer, "train", fit)


def _interrupted_read(monkeypatch) -> None:
    import scorecard.trainer.data.prepare as prepare

    def read(path):
        raise KeyboardInterrupt

    monkeypatch.setattr(prepare, "read_table", read)


def _status(name: str, status: str) -> Callable:
    def check(folder: Path) -> None:
        import json

        assert json.loads((folder / name).read_text())["training"]["status"] == status

    return check


TRAIN_ARGS = ("--target", "y", "--time-limit", "20")
#: TRAIN far past the decoder's first chunk (8 KiB), then a byte that is not UTF-8.
BAD_BYTES = (TRAIN + TRAIN.split("\n", 1)[1] * 300).encode() + b"1,\xff,0\n"
BAD_OFFSET = BAD_BYTES.index(b"\xff")
LONG_CELL = f"a,b,note\n5,1,{'x' * 200_000}\n1,0,short\n"


def _edited(**raw: str) -> str:
    """MODEL with fields replaced by raw JSON text: ``_edited(intercept="1e999")``; a field
    ``target_positive`` is ``target.positive``, ``terms_0_points`` the first term's points."""
    import json

    d = json.loads(MODEL)
    for name, text in raw.items():
        *path, last = name.split("_", 2) if name.startswith("terms") else name.split("_")
        node = d
        for key in path:
            node = node[int(key)] if key.isdigit() else node[key]
        node[last] = f"@{name}@"
    text = json.dumps(d)
    for name, value in raw.items():
        text = text.replace(f'"@{name}@"', value)
    return text
#: TRAIN with its positive rows written "1" or "1.0" alternately.
TRAIN_MIXED = "y,a,b\n" + "".join(f"{('0', '1', '1.0')[(k % 7 > 2) * (1 + k % 2)]},{k % 7},{k % 2}\n"
                                  for k in range(40))


def _model_says(name: str, **expected) -> Callable:
    def check(folder: Path) -> None:
        import json

        model = json.loads((folder / name).read_text())
        got = {"positive": model["target"]["positive"], "train_error": model["training"]["train_error"]}
        assert {k: got[k] for k in expected} == expected

    return check

#: A model of 3,000 terms (1,500 inputs, a cut-off and a linear term each, float points).
WIDE = dumps(Model("linear", Target("y", 1), tuple(Input(f"x{k}", "numeric") for k in range(1500)),
                   tuple(t for k in range(1500) for t in (Term(f"x{k}", ">=", k % 5, 0.1 * (k % 7) - 0.3, ""),
                                                         Term(f"x{k}", "linear", None, 0.01 * (k % 11), ""))), 0.7))
WIDE_ROW = {f"x{k}": k % 9 - 2.5 for k in range(1500)}
LONG_NAME = "Q" * 56 + "_age_years"  # 66 bytes: PostgreSQL would read the column "Q...Q_age_mo..."


def _sql_scores(name: str, engine: str, model: str, rows: list[dict]) -> Callable:
    """The query in ``name`` run in SQLite or DuckDB over ``rows`` gives the runtime's scores
    in its last columns (score, prediction), whatever else the table holds."""
    def check(folder: Path) -> None:
        import json
        import sqlite3

        from scorecard.runtime import loads, predict, score

        con = sqlite3.connect(":memory:") if engine == "sqlite" else __import__("duckdb").connect()
        names = list(rows[0])
        con.execute(f"CREATE TABLE input ({', '.join(json.dumps(n) + ' DOUBLE' for n in names)})")
        con.executemany(f"INSERT INTO input VALUES ({', '.join('?' * len(names))})",
                        [tuple(r[n] for n in names) for r in rows])
        got = [tuple(r[-2:]) for r in con.execute((folder / name).read_text()).fetchall()]
        scored = loads(model)
        assert got == [(score(scored, r), predict(scored, r)) for r in rows]

    return check


def _python_scores(name: str, model: str, row: dict) -> Callable:
    def check(folder: Path) -> None:
        import importlib.util

        from scorecard.runtime import loads, score

        spec = importlib.util.spec_from_file_location("wide_export", folder / name)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        assert module.score(row) == score(loads(model), row)

    return check

CASES = [
    # item 5: an output path equal to an input is refused before any work
    Case("train -o its data", ("train", "train.csv", *TRAIN_ARGS, "-o", "train.csv"), 2,
         "-o train.csv is the input file train.csv", item=5),
    Case("train -o its config", ("train", "train.csv", *TRAIN_ARGS, "--config", "c.toml", "-o", "c.toml"), 2,
         "is the input file c.toml", files={"c.toml": "c0 = 0.01\n"}, item=5),
    Case("train -o a link to its data", ("train", "train.csv", *TRAIN_ARGS, "-o", "link.csv"), 2,
         "is the input file train.csv", files={"link.csv": _symlink("train.csv")}, item=5),
    Case("train -o the data by another path", ("train", "train.csv", *TRAIN_ARGS, "-o", "sub/../train.csv"), 2,
         "is the input file", files={"sub": lambda p: p.mkdir()}, item=5),
    Case("predict -o its data", ("predict", "m.json", "d.csv", "-o", "d.csv"), 2, "is the input file d.csv", item=5),
    Case("predict -o its model", ("predict", "m.json", "d.csv", "-o", "m.json"), 2, "is the input file m.json",
         item=5),
    Case("export -o its model", ("export", "m.json", "--format", "text", "-o", "m.json"), 2,
         "is the input file m.json", item=5),
    Case("cv -o its data", ("cv", "train.csv", *TRAIN_ARGS, "--folds", "2", "-o", "train.csv"), 2,
         "is the input file train.csv", item=5),
    Case("cv --plot its data", ("cv", "train.csv", *TRAIN_ARGS, "--folds", "2", "--plot", "train.csv"), 2,
         "--plot train.csv is the input file", item=5),
    Case("cv -o and --plot the same", ("cv", "train.csv", *TRAIN_ARGS, "--folds", "2", "-o", "x", "--plot", "x"), 2,
         "-o and --plot name the same file x", item=5),
    Case("predict -o /dev/null is no clash", ("predict", "m.json", "d.csv", "-o", os.devnull), 0, "", item=5),
    # item 18: an output path that cannot be written is refused first, named as the user gave it
    Case("train -o a folder", ("train", "train.csv", "--target", "nosuch", "-o", "out"), 2,
         "-o out: is a folder", files={"out": lambda p: p.mkdir()}, item=18),
    Case("train -o into a missing folder", ("train", "train.csv", "--target", "nosuch", "-o", "no/m.json"), 2,
         "-o no/m.json: no such folder", item=18),
    Case("predict -o a folder", ("predict", "m.json", "d.csv", "-o", "out"), 2, "-o out: is a folder",
         files={"out": lambda p: p.mkdir()}, item=18),
    Case("export -o a folder", ("export", "m.json", "--format", "html", "-o", "out"), 2, "-o out: is a folder",
         files={"out": lambda p: p.mkdir()}, item=18),
    Case("cv --plot into a missing folder", ("cv", "train.csv", "--target", "y", "--plot", "no/p.svg"), 2,
         "--plot no/p.svg: no such folder", item=18),
    # item 2: an overwritten file keeps its mode
    Case("predict over a 0600 file", ("predict", "m.json", "d.csv", "-o", "o.csv"), 0, "",
         files={"o.csv": lambda p: (p.write_text("old"), p.chmod(0o600))}, changes=("o.csv",),
         check=_mode("o.csv", 0o600), item=2),
    # item 22: a temporary file left by a killed process is cleaned by the next write there
    Case("a stale temporary file is cleaned", ("predict", "m.json", "d.csv", "-o", "o.csv"), 0, "",
         files={STALE: "partial rows"}, changes=("o.csv", STALE), check=lambda p: not (p / STALE).exists(),
         item=22),
    # item 6: Ctrl-C keeps the best model, exit 130, and says where it is
    Case("Ctrl-C during the solve", ("train", "train.csv", *TRAIN_ARGS, "-o", "m2.json"), 130,
         "interrupted: the best model found before Ctrl-C is written to m2.json", changes=("m2.json",),
         patch=_interrupted_fit, check=_status("m2.json", "interrupted"), item=6),
    # item 7: numerically equal target values are one class
    Case("target 1 and 1.0 --positive 1.0", ("train", "mixed.csv", *TRAIN_ARGS, "--positive", "1.0", "-o", "m2.json"),
         0, "", files={"mixed.csv": TRAIN_MIXED}, changes=("m2.json",),
         check=_model_says("m2.json", positive=1, train_error=0.0), item=7),
    Case("target 1 and 1.0 only", ("train", "ones.csv", *TRAIN_ARGS, "--positive", "1.0", "-o", "m2.json"), 2,
         "holds one class only ('1'; '1', '1.0' are one number)",
         files={"ones.csv": "y,a\n1,1\n1.0,2\n1,3\n1.0,4\n"}, item=7),
    # items 13 and 14: hand-edited model files are one ModelError (exit 2) in every command
    *(Case(f"{command[0]} a model with {what}", (*command[:1], "bad.json", *command[1:]), 2, message,
           files={"bad.json": text}, item=13 if "Infinity" not in what and "NaN" not in what else 14)
      for what, text, message in [
          ("points 10^309", _edited(terms_0_points="1" + "0" * 309), "(310 digits) is beyond the range of a number"),
          ("points of 5000 digits", _edited(terms_0_points="9" * 5000), "(5000 digits) is beyond the range"),
          ("deep nesting", MODEL.replace('"golden": []', '"golden": ' + "[" * 50_000 + "]" * 50_000),
           "nested too deeply"),
          ("positive Infinity", _edited(target_positive="Infinity"), "Infinity is not a number JSON allows"),
          ("positive NaN", _edited(target_positive="NaN"), "NaN is not a number JSON allows"),
          ("positive 1e999", _edited(target_positive="1e999"), "the number 1e999 is beyond the range"),
      ]
      for command in [("show",), ("predict", "d.csv", "-o", "o.csv"), ("export", "--format", "python", "-o", "o.py"),
                      ("verify",)]),
    # item 17: a finite but huge value is refused naming file, column and value, before any numpy warning
    Case("train on 1e308", ("train", "big.csv", *TRAIN_ARGS, "-o", "m2.json"), 2,
         "big.csv: column 'a' holds '1e308' on line 7, beyond the largest magnitude training accepts",
         files={"big.csv": TRAIN.replace("\n1,5,1\n", "\n1,1e308,1\n", 1)}, item=17),
    # item 16: a non-UTF-8 byte is reported at its offset in the file, by every command, naming the file
    *(Case(f"{command[0]} a bad byte far into the file", command, 2,
           f"bad.csv: not UTF-8 text (invalid start byte at byte {BAD_OFFSET})",
           files={"bad.csv": BAD_BYTES}, item=16)
      for command in [("predict", "m.json", "bad.csv", "-o", "o.csv"), ("predict", "m.json", "bad.csv"),
                      ("train", "bad.csv", *TRAIN_ARGS, "-o", "m2.json"), ("verify", "m.json", "--data", "bad.csv")]),
    # item 12: a cell over 131,072 characters is read like any other
    Case("predict a cell of 200,000 characters", ("predict", "m.json", "long.csv", "-o", "o.csv"), 0, "",
         files={"long.csv": LONG_CELL}, changes=("o.csv",),
         check=lambda p: (p / "o.csv").read_text().splitlines()[1] == f"5,1,{'x' * 200_000},3,1", item=12),
    Case("verify a cell of 200,000 characters", ("verify", "m.json", "--data", "long.csv"), 0, "",
         files={"long.csv": LONG_CELL}, item=12),
    # item 11: verify --data reads files as predict does
    Case("verify duplicate headers", ("verify", "m.json", "--data", "dup.csv"), 2,
         "dup.csv: column 'a' appears twice in the header", files={"dup.csv": "a,b,a\n1,0,5\n"}, item=11),
    Case("verify a ragged row", ("verify", "m.json", "--data", "ragged.csv"), 2,
         "ragged.csv: line 3 has 1 cells, the header has 2", files={"ragged.csv": "a,b\n1,0\n5\n"}, item=11),
    Case("Ctrl-C while reading", ("train", "train.csv", *TRAIN_ARGS, "-o", "m2.json"), 130,
         "error: interrupted", patch=_interrupted_read, item=6),
    # issue 12 items 3, 19, 20 (names)
    # item 3: bidirectional controls show as code points where a person reads a name
    *(Case(f"export {fmt} of a category stored as \\u202eder", ("export", "bidi.json", "--format", fmt, "-o", out), 0, "",
           files={"bidi.json": dumps(Model("linear", Target("y", 1), (Input("colo\u202dur", "categorical"),),
                                           (Term("colo\u202dur", "==", "\u202eder", 2, ""),), -1))},
           changes=(out,), item=3,
           check=lambda p, out=out, shown=shown: shown in (p / out).read_text(encoding="utf-8")
           and "\u202e" not in (p / out).read_text(encoding="utf-8").split('id="scorecard-model"')[0])
      for fmt, out, shown in [("text", "card.txt", "colo[U+202D]ur = [U+202E]der"),
                              ("html", "card.html", "colo[U+202D]ur = [U+202E]der"),
                              ("python", "card.py", "'colo\\u202dur'")]),
    # item 19: a UTF-8 byte order mark is not part of the first column's name, for every reader
    Case("verify --data a CSV with a BOM", ("verify", "m.json", "--data", "bom.csv"), 0, "",
         files={"bom.csv": b"\xef\xbb\xbf" + DATA.encode()}, item=19),
    Case("the exported Python reads a CSV with a BOM", ("export", "m.json", "--format", "python", "-o", "m.py"), 0, "",
         files={"bom.csv": b"\xef\xbb\xbf" + DATA.encode()}, changes=("m.py",), item=19,
         check=lambda p: subprocess.run([sys.executable, "-I", "-S", "m.py", "bom.csv"], cwd=p, capture_output=True,
                                        text=True).stdout == "a,b,score,prediction\n1,0,0,0\n5,1,3,1\n"),
    # item 20: train refuses the names every later command refuses (a NUL character), with the reason
    Case("train a column name with NUL", ("train", "nul.csv", *TRAIN_ARGS, "-o", "m2.json"), 2,
         "nul.csv: column 'a\\x00x': its name holds a NUL character (U+0000)",
         files={"nul.csv": TRAIN.replace("y,a,b", "y,a\x00x,b", 1)}, item=20),
    Case("train a category with NUL", ("train", "nul.csv", *TRAIN_ARGS, "-o", "m2.json"), 2,
         "nul.csv: column 'c' holds 'r\\x00ed' on line 3, which holds a NUL character (U+0000)",
         files={"nul.csv": "y,c\n" + "".join(f"{k % 2},{('blue', 'r' + chr(0) + 'ed')[k % 2]}\n" for k in range(20))},
         item=20),
    Case("show a model with a NUL name", ("show", "nul.json"), 2, "inputs[0].name: 'a\\x00' holds a NUL character",
         files={"nul.json": MODEL.replace('"a"', '"a\\u0000"')}, item=20),
    # issue 12 items 4, 10, 21 (SQL)
    Case("sql over a table that has score and prediction columns",
         ("export", "m.json", "--format", "sql", "--dialect", "sqlite", "-o", "q.sql"), 0, "", changes=("q.sql",),
         check=_sql_scores("q.sql", "sqlite", MODEL, [{"a": a, "b": b, "score": -99, "prediction": 1, "s": -99}
                                                      for a in (1, 5) for b in (0, 1)]), item=4),
    Case("sql postgres of a name over 63 bytes",
         ("export", "long.json", "--format", "sql", "--dialect", "postgres", "-o", "q.sql"), 2,
         f"'{LONG_NAME}' is 66 bytes long; postgres keeps only the first 63 bytes of a name",
         files={"long.json": MODEL.replace('"a"', f'"{LONG_NAME}"')}, item=10),
    Case("sql duckdb of 3000 terms runs", ("export", "wide.json", "--format", "sql", "--dialect", "duckdb", "-o", "q.sql"),
         0, "", files={"wide.json": WIDE}, changes=("q.sql",), check=_sql_scores("q.sql", "duckdb", WIDE, [WIDE_ROW]),
         item=21),
    Case("sql sqlite of 3000 terms", ("export", "wide.json", "--format", "sql", "--dialect", "sqlite", "-o", "q.sql"),
         2, "the model has 3000 terms; a sqlite query adds at most 900", files={"wide.json": WIDE}, item=21),
    Case("python of 3000 terms runs", ("export", "wide.json", "--format", "python", "-o", "w.py"), 0, "",
         files={"wide.json": WIDE}, changes=("w.py",), check=_python_scores("w.py", WIDE, WIDE_ROW), item=21),
    # issue 12 items 8, 9 (numbers)
    *(Case(f"predict a cell {cell!r}", ("predict", "m.json", "n.csv", "-o", "o.csv"), 2,
           f"n.csv: line 2: column 'a': {cell!r} is not a number", files={"n.csv": f"a,b\n{cell},1\n"}, item=8)
      for cell in ("0x10", "0b11", "1_0", "\u0663", "\ufeff5", "inf")),
    Case("predict a huge integer", ("predict", "m.json", "n.csv", "-o", "o.csv"), 0, "",
         files={"n.csv": "a,b\n1,9007199254740993\n"}, changes=("o.csv",),
         check=lambda p: (p / "o.csv").read_text().splitlines()[1] == "1,9007199254740993,9007199254740992.0,1", item=9),
    Case("export a model with points 2^63", ("export", "big.json", "--format", "sql", "-o", "o.sql"), 2,
         "big.json: terms[0].points: 9223372036854775808 takes |intercept| + |points| to",
         files={"big.json": _edited(terms_0_points=str(2**63))}, item=9),
    Case("verify a threshold of 2^53 + 1", ("verify", "big.json"), 2,
         "big.json: terms[0].value: the integer 9007199254740993 is beyond +-2^53 = 9007199254740992 and no double",
         files={"big.json": _edited(terms_0_value=str(2**53 + 1))}, item=9),
    *(Case(f"verify values of {what}", ("verify", "m.json", "--data", "n.csv"), 0, "",
           files={"n.csv": f"a,b\n{value},{value}\n1,{value}\n"}, item=9)
      for what, value in (("2^53 + 1", 2**53 + 1), ("10^30", 10**30), ("-2^63", -(2**63)))),
]


def _make(folder: Path, files: dict) -> None:
    for name, content in files.items():
        path = folder / name
        if callable(content):
            content(path)
        elif isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")


def _snapshot(folder: Path) -> dict:
    state = {}
    for path in sorted(folder.rglob("*")):
        info = path.lstat()
        content = path.read_bytes() if stat.S_ISREG(info.st_mode) else os.readlink(path) if path.is_symlink() else None
        state[str(path.relative_to(folder))] = (stat.S_IFMT(info.st_mode), stat.S_IMODE(info.st_mode), content)
    return state


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_hostile(case, cli, tmp_path, monkeypatch):
    _make(tmp_path, {**STANDARD, **case.files})
    before = _snapshot(tmp_path)
    monkeypatch.chdir(tmp_path)
    if case.patch:
        case.patch(monkeypatch)
    run = cli(*case.args)
    assert run.code == case.code, run.err
    assert case.message in run.err, run.err
    assert "Traceback" not in run.err and TMP_MARK not in run.err
    if case.code == 2:
        assert run.err.startswith("error: ") and run.err.count("\n") == 1, run.err
    after = _snapshot(tmp_path)
    for name in set(before) | set(after):
        if name not in case.changes:
            assert before.get(name) == after.get(name), f"{name} was created, changed or removed"
    if case.check:
        assert case.check(tmp_path) is not False


def test_the_battery_size_is_the_readmes():
    """The README's reliability paragraph states how many hostile cases the battery runs."""
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    assert f"{len(CASES)} hostile cases" in readme
