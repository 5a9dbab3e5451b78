"""The plain `scorecard train` on raw data: the same model file run after run, idle or with both
cores busy; Ctrl-C in every step; 1 to --max-items items.

Real processes throughout (the command as a user runs it, Python's own SIGINT handling). No
verdict rests on the clock: the model files are compared whole (timings aside) whatever each
run took, and each Ctrl-C is sent while the process is stopped (SIGSTOP) at the step it
announced (`--verbose` prints `step: ...` as each begins), so it lands in that step on any
machine; the seconds to exit are checked only against a generous bound (the 2 s goal is
measured in benchmarks/interrupt.py).
"""
from __future__ import annotations

import fcntl
import json
import os
import signal
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path

import pytest
from testdata import EXAMPLES, ROOT

SCORECARD = [sys.executable, "-c", "from scorecard.cli import app; app()"]
DATA = ROOT / "tests" / "data"
#: (file, target, positive): raw CSVs as R's write.csv writes them (text columns, empty cells).
RAW = {"titanic": (EXAMPLES / "titanic.csv", "survived", "yes"),
       "birthwt": (DATA / "birthwt.csv", "low", "1"),
       "pima": (DATA / "pima.csv", "type", "Yes")}
#: A run must end this soon after Ctrl-C (the goal, 2 s, is a benchmark's; a busy CI machine
#: is given room).
EXIT_SECONDS = 20
TIMINGS = {"seconds", "oracle_seconds", "master_seconds"}


def _train(name: str, out: Path, *extra: str) -> subprocess.CompletedProcess:
    data, target, positive = RAW[name]
    return subprocess.run([*SCORECARD, "train", str(data), "--target", target, "--positive", positive,
                           "-o", str(out), *extra], capture_output=True, text=True)


def _meaning(path: Path) -> dict:
    """The model file without its timings (what may differ between two runs of the same work)."""
    def strip(value):
        if isinstance(value, dict):
            return {k: strip(v) for k, v in value.items() if k not in TIMINGS}
        if isinstance(value, list):
            return [strip(v) for v in value]
        return value

    return strip(json.loads(path.read_text()))


@contextmanager
def _busy_cores(n: int = 2):
    """``n`` processes spinning on the CPU: both cores of a CI machine busy."""
    hogs = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(n)]
    try:
        yield
    finally:
        for hog in hogs:
            hog.kill()
            hog.wait()


def test_the_default_card_is_the_same_model_file_idle_and_with_both_cores_busy(tmp_path):
    for name in RAW:
        idle, busy = tmp_path / f"{name}-idle.json", tmp_path / f"{name}-busy.json"
        first = _train(name, idle)
        assert first.returncode == 0, first.stderr
        with _busy_cores():
            second = _train(name, busy)
        assert second.returncode == 0, second.stderr
        a, b = _meaning(idle), _meaning(busy)
        assert a == b, f"{name}: the same command gave another model file under load"
        t = a["training"]
        assert t["status"] in ("optimal", "work_limit") and "time_limit_cut" not in t["params"]
        assert "another run may give another card" not in first.stderr + second.stderr
        assert t["selection"]["method"] == "cv" and 1 <= len(a["terms"]) <= 10 or t["selection"]["loss"] == "empty"


def test_the_time_limit_ends_the_command_and_the_model_says_it_was_cut(tmp_path):
    out = tmp_path / "m.json"
    run = _train("pima", out, "--time-limit", "3")  # far less than the default work needs here
    assert run.returncode == 0, run.stderr
    t = json.loads(out.read_text())["training"]
    assert t["params"]["time_limit_cut"] is True and t["status"] in ("time_limit", "optimal", "interrupted")
    assert "another run may give another card; raise --time-limit to make it reproducible" in run.stderr


def test_a_card_has_at_most_max_items_items(tmp_path):
    out = tmp_path / "m.json"
    run = _train("pima", out, "--max-items", "3")
    assert run.returncode == 0, run.stderr
    model = json.loads(out.read_text())
    assert 1 <= len([t for t in model["terms"] if t["points"] != 0]) <= 3
    assert all(p["size"] <= 3 for p in model["training"]["selection"]["grid"] if p.get("loss") == "logistic")


def _interrupt_at(command: list[str], step: str) -> tuple[int, float, str]:
    """Run ``command`` (with --verbose), stop it as soon as it announces ``step``, send SIGINT
    and let it go on: (exit code, seconds from SIGINT to exit, stderr)."""
    proc = subprocess.Popen([*command, "--verbose"], stderr=subprocess.PIPE, text=True)
    seen = []
    for line in proc.stderr:
        seen.append(line)
        if line.startswith("step: ") and step in line:
            proc.send_signal(signal.SIGSTOP)
            proc.send_signal(signal.SIGINT)
            start = time.monotonic()
            proc.send_signal(signal.SIGCONT)
            break
    else:
        proc.wait()
        pytest.fail(f"no step {step!r} was announced: {''.join(seen)[-2000:]}")
    rest = proc.stderr.read()
    code = proc.wait(timeout=EXIT_SECONDS + 30)
    return code, time.monotonic() - start, "".join(seen) + rest


@pytest.mark.parametrize("name, step, written", [
    ("titanic", "reading", False),
    ("titanic", "cross-validation: the logistic-loss cards", False),
    ("titanic", "cross-validation: C0", False),
    ("titanic", "the exact search of the card on every row", True),
    ("pima", "the exact integer program", True),
])
def test_ctrl_c_in_each_step_of_train_stops_it_and_keeps_the_card_once_there_is_one(tmp_path, name, step, written):
    data, target, positive = RAW[name]
    out = tmp_path / "m.json"
    code, seconds, err = _interrupt_at([*SCORECARD, "train", str(data), "--target", target, "--positive", positive,
                                        "-o", str(out)], step)
    assert code == 130, err
    assert seconds < EXIT_SECONDS
    assert "Traceback" not in err
    if written:
        assert json.loads(out.read_text())["training"]["status"] == "interrupted"
        assert "the best model found before Ctrl-C is written to" in err
    else:
        assert not out.exists() and "error: interrupted (Ctrl-C)" in err
    assert not [p for p in tmp_path.iterdir() if "scorecard-tmp" in p.name]


@pytest.fixture(scope="module")
def card(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("card") / "titanic.json"
    run = _train("titanic", out)
    assert run.returncode == 0, run.stderr
    return out


def test_ctrl_c_while_predict_reads_stops_it_and_writes_nothing(card, tmp_path):
    fifo, out = tmp_path / "rows.csv", tmp_path / "scored.csv"
    os.mkfifo(fifo)
    proc = subprocess.Popen([*SCORECARD, "predict", str(card), str(fifo), "-o", str(out)], stderr=subprocess.PIPE,
                            text=True)
    with open(fifo, "w") as feed:  # half the rows, then the writer waits: predict is reading
        lines = (EXAMPLES / "titanic.csv").read_text().splitlines(keepends=True)
        feed.writelines(lines[: len(lines) // 2])
        feed.flush()
        proc.send_signal(signal.SIGINT)
        start = time.monotonic()
        code = proc.wait(timeout=EXIT_SECONDS + 30)
    assert code == 130 and time.monotonic() - start < EXIT_SECONDS
    assert "error: interrupted (Ctrl-C)" in proc.stderr.read()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["rows.csv"]


def test_ctrl_c_while_export_writes_stops_it(card):
    read, write = os.pipe()
    fcntl.fcntl(write, fcntl.F_SETPIPE_SZ, 4096)  # the export (22 kB) blocks once 4 kB are written
    proc = subprocess.Popen([*SCORECARD, "export", str(card), "--format", "python", "-o", "/dev/stdout"],
                            stdout=write, stderr=subprocess.PIPE, text=True)
    os.close(write)
    with os.fdopen(read, "rb") as pipe:
        assert pipe.read(1)  # it has begun writing (and cannot finish: nobody reads the rest)
        proc.send_signal(signal.SIGINT)
        start = time.monotonic()
        code = proc.wait(timeout=EXIT_SECONDS + 30)
    assert code == 130 and time.monotonic() - start < EXIT_SECONDS
    assert "Traceback" not in proc.stderr.read()
