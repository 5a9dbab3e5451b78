"""Small CLI behaviours: --version, defaults in --help, predict to standard output,
--verbose progress in a pipe, the summary's plural, and `show` listing changed options only."""
from __future__ import annotations

import dataclasses
import io
import json
import re

from scorecard.runtime import Input, Model, Target, Term, Training, dump
from scorecard.trainer.options.config import TrainConfig
from scorecard.trainer.solvers.progress import Progress

from scorecard import __version__
from scorecard.cli import summary
from scorecard.live import LiveProgress


def test_version(cli):
    run = cli("--version")
    assert (run.code, run.out, run.err) == (0, f"scorecard {__version__}\n", "")
    assert run.out == "scorecard 0.1.0\n"


def test_help_exits_zero(cli):
    run = cli("train", "--help")
    assert run.code == 0 and "--c0" in run.out and "default:" in run.out


def test_help_shows_every_bracket_as_written(cli, monkeypatch):
    """Rich help drops '[meta]' or '[default: auto]' as a style tag unless it is escaped: every
    bracketed word of every option's help must reach the reader."""
    import typer

    from scorecard.cli import app

    monkeypatch.setenv("COLUMNS", "2000")  # one line per option: no word is wrapped apart
    seen = 0
    for name, command in typer.main.get_command(app).commands.items():
        run = cli(name, "--help")
        for param in command.params:
            for words in re.findall(r"\[[^\]]*\]", (getattr(param, "help", None) or "").replace("\\[", "[")):
                assert words in run.out, (name, param.name, words)
                seen += 1
    assert seen >= 10  # the meta tables, the defaults of the training options, [N, k]


def _model(path, training=None) -> str:
    dump(Model("linear", Target("y", 1), (Input("a", "numeric"),), (Term("a", "linear", None, 2, "a"),), -5,
               training=training), str(path))
    return str(path)


def test_predict_writes_standard_output_without_o_or_with_dash(cli, write, tmp_path):
    data = write("d.csv", "a\n1\n3\n")
    model = _model(tmp_path / "m.json")
    for args in ((), ("-o", "-")):
        run = cli("predict", model, data, *args)
        assert (run.code, run.out, run.err) == (0, "a,score,prediction\n1,2,0\n3,6,1\n", "")
    assert not (tmp_path / "-").exists()


def test_verbose_progress_prints_lines_in_a_pipe():
    event = Progress(elapsed=1.5, incumbent=0.0321, bound=0.029, gap=0.097, message="cbc")
    pipe = io.StringIO()
    live = LiveProgress(pipe, interval=0, verbose=True)
    live(event)
    live(event)
    live.close()
    lines = pipe.getvalue().splitlines(keepends=True)
    assert len(lines) == 2 and all(line.endswith("\n") for line in lines)
    assert "\r" not in pipe.getvalue() and "\x1b" not in pipe.getvalue()
    assert "best 0.0321" in lines[0] and "gap 9.7%" in lines[0]


def _training(params: dict) -> Training:
    return Training(solver="cbc", status="optimal", objective=0.1, lower_bound=0.1, gap=0.0, seconds=1.0,
                    train_error=0.1, n_rows=10, params=params)


def test_summary_says_term_or_terms():
    one = Model("linear", Target("y", 1), (Input("a", "numeric"),), (Term("a", "linear", None, 2, "a"),), -5)
    two = dataclasses.replace(one, inputs=one.inputs + (Input("b", "numeric"),),
                              terms=one.terms + (Term("b", "linear", None, 1, "b"),))
    assert ", 1 term" in summary(one, "m.json") and "1 terms" not in summary(one, "m.json")
    assert ", 2 terms" in summary(two, "m.json")


def test_show_lists_only_the_options_that_differ_from_the_defaults(cli, tmp_path):
    params = json.loads(json.dumps(TrainConfig().to_params()))
    params.update(c0=0.025, time_limit=20.0)
    run = cli("show", _model(tmp_path / "m.json", _training(params)))
    assert run.code == 0, run.err
    line = next(line for line in run.out.splitlines() if line.lstrip().startswith("params"))
    assert line.split(None, 1)[1] == "c0=0.025, time_limit=20.0 (the rest default)"
    defaults_only = cli("show", _model(tmp_path / "d.json", _training(json.loads(json.dumps(TrainConfig().to_params())))))
    assert "params       (all default)" in defaults_only.out
