"""trainer/options/spec.py is the one table of training options: every consumer follows it.

TrainConfig's fields and checks, the train/cv flags and their --help, the TOML keys,
SLIMClassifier's parameters and README's table are compared with the spec here, so a change
made in one place and not the others fails.
"""
from __future__ import annotations

import dataclasses
import inspect
import re
from pathlib import Path

import pytest
from scorecard.runtime.errors import ConfigError
from scorecard.trainer.options import spec
from scorecard.trainer.options.config import PER_COLUMN, TrainConfig, load_toml, option_names
from scorecard.trainer.options.constraints import CoefSet, normalize_config

from scorecard import SLIMClassifier

README = Path(__file__).resolve().parents[2] / "README.md"


def test_trainconfig_fields_and_defaults_are_the_spec():
    fields = dataclasses.fields(TrainConfig)
    assert [f.name for f in fields] == [o.name for o in spec.config_options()]
    for f in fields:
        option = spec.BY_NAME[f.name]
        assert f.type == option.type, f.name
        default = f.default_factory() if f.default is dataclasses.MISSING else f.default
        assert default == option.default and type(default) is type(option.default), f.name
    assert TrainConfig().to_params()["c0"] == spec.BY_NAME["c0"].default


def test_every_option_has_help_a_section_and_a_known_cli_form():
    for option in spec.OPTIONS:
        assert option.help and option.section in spec.SECTIONS, option.name
        assert option.cli_form in ("value", "numbers", "number_or_auto", "per_column") and option.cli_read in ("text", "number", "numbers")
        if option.flags:
            assert option.cli_type is not None and all(f.startswith("--") for f in option.flags), option.name
    assert len({o.cli_name for o in spec.cli_options()}) == len(spec.cli_options())
    assert set(PER_COLUMN) == {"signs", "coefficients", "c0_by_input", "cuts", "numeric_by_input"}


@pytest.mark.parametrize("changes, message", [
    ({"c0": -1}, "--c0: -1 is not valid; use a number >= 0 (e.g. 0.01) or auto"),
    ({"c0": "best"}, "--c0: 'best' is not valid; use a number >= 0 (e.g. 0.01) or auto"),
    ({"model": "tilm", "c_rule": 0.02}, "--c-rule: 0.02 is not valid; use it with --c-feature, or a number for --c0"),
    ({"c0": float("nan")}, "--c0: nan is not valid; use a number >= 0 (e.g. 0.01)"),
    ({"model": "forest"}, "--model: 'forest' is not valid; use one of slim, mofn, pilm, tilm"),
    ({"loss": "l2"}, "--loss: 'l2' is not valid; use one of zero-one, logistic, hinge, exponential, quadratic"),
    ({"coef_min": 1.5}, "--coef-min: 1.5 is not valid; use an integer"),
    ({"coef_min": 5, "coef_max": 1}, "--coef-min/--coef-max: (5, 1) is not valid; use integers with min <= max"),
    ({"intercept_min": 5, "intercept_max": 1}, "--intercept-min/--intercept-max: (5, 1) is not valid"),
    ({"coef_set": ()}, "--coef-set: () is not valid; use a non-empty list of finite numbers"),
    ({"max_features": -1}, "--max-features: -1 is not valid; use an integer >= 0"),
    ({"min_features": 3, "max_features": 2}, "--min-features: 3 is not valid; use at most --max-features (2)"),
    ({"signs": {"a": "up"}}, "--sign: 'a=up' is not valid; use COL=+ or COL=-"),
    ({"max_fpr": 1.5}, "--max-fpr: 1.5 is not valid; use a rate between 0 and 1"),
    ({"w_pos": 1}, "--w-pos: 1 is not valid; use a number strictly between 0 and 1"),
    ({"time_limit": 0}, "--time-limit: 0 is not valid; use a number of seconds > 0"),
    ({"threads": 0}, "--threads: 0 is not valid; use an integer >= 1"),
    ({"reduce_width": -1}, "--reduce-width: -1 is not valid; use a number >= 0 (the level-set width of --reduce)"),
    ({"max_thresholds": 0}, "--max-thresholds: 0 is not valid; use an integer >= 1"),
    ({"max_rules_per_feature": 0}, "--max-rules-per-feature: 0 is not valid; use an integer >= 1"),
    ({"c_feature": -1.0}, "--c-feature: -1.0 is not valid; use a number >= 0"),
    ({"verbose": "yes"}, "--verbose: 'yes' is not valid; use true or false"),
    ({"model": "tilm", "c_feature": 0.01, "c_rule": 0.02}, "--c-rule: 0.02 is not valid; use at most --c-feature"),
    ({"model": "tilm", "c0": 0.01, "c_rule": 0.02}, "--c-rule: 0.02 is not valid; use at most --c-feature (0.01)"),
    ({"model": "mofn", "loss": "logistic"}, "--model: 'mofn' is not valid; use slim with --loss logistic"),
])
def test_each_check_of_the_spec_refuses_at_construction(changes, message):
    with pytest.raises(ConfigError, match=re.escape(message)):
        TrainConfig(**changes)


def test_optional_options_accept_none_and_good_values_pass():
    TrainConfig(max_features=None, max_fpr=None, c_rule=None, reduce_width=None)
    TrainConfig(model="tilm", c0=0.01, c_rule=0.005, max_fpr=0.2, coef_set=(-1, 0, 1), verbose=True)


def test_normalize_config_is_pure_and_applied_once_at_construction():
    values = {f.name: getattr(TrainConfig(), f.name) for f in dataclasses.fields(TrainConfig)}
    values |= {"coefficients": {"age": "0..2"}, "at_most_one": [{"of": ["a", "b"]}], "cuts": {"age": [60, 40]}}
    before = repr(values)
    out = normalize_config(values)
    assert repr(values) == before  # the input is left as it was
    assert out["coefficients"] == {"age": CoefSet((0, 1, 2))} and out["cuts"] == {"age": (40, 60)}
    config = TrainConfig(**{k: v for k, v in values.items()})
    assert config.coefficients == out["coefficients"] and config.at_most_one[0].of == ("a", "b")
    assert normalize_config({f.name: getattr(config, f.name) for f in dataclasses.fields(config)}) == \
        {k: getattr(config, k) for k in out}  # idempotent: with_options re-runs it on normalized values
    source = inspect.getsource(normalize_config)
    assert "__setattr__" not in source


def test_toml_keys_are_the_spec_s(write):
    assert option_names() == spec.toml_keys()
    assert "config" not in spec.toml_keys() and {"target", "positive"} <= set(spec.toml_keys())
    text = "".join(f"{o.name} = {o.default!r}\n".replace("'", '"').replace("True", "true").replace("False", "false")
                   for o in spec.config_options() if isinstance(o.default, (int, float, str)))
    options = load_toml(str(write("all.toml", text)))
    assert TrainConfig(**options) == TrainConfig()
    with pytest.raises(ConfigError, match="unknown option 'config'"):
        load_toml(str(write("c.toml", 'config = "other.toml"\n')))


def _params(command):
    import typer

    from scorecard.cli import app

    click_command = typer.main.get_command(app).commands[command]
    return {p.name: p for p in click_command.params}


@pytest.mark.parametrize("command", ["train", "cv"])
def test_train_and_cv_flags_are_the_spec_s(command):
    params = _params(command)
    for option in spec.cli_options():
        param = params[option.cli_name]
        spellings = [s for flag in option.flags for s in flag.split("/")]
        assert sorted(param.opts + param.secondary_opts) == sorted(spellings), option.name
        assert param.default is None  # so a --config file merges under the flags given
        if option.shown_default is not None:
            assert param.help.endswith(f"[default: {option.shown_default}]"), option.name


def test_help_shows_the_spec_defaults(cli, monkeypatch):
    monkeypatch.setenv("COLUMNS", "300")  # one line per option
    run = cli("train", "--help")
    text = " ".join(run.out.split())
    assert run.code == 0
    for needle in ("[default: auto]", "[default: slim]", "[default: 300]", "[default: --no-reduce]"):
        assert needle in text


def test_estimator_parameters_are_the_spec_s_estimator_options():
    params = inspect.signature(SLIMClassifier.__init__).parameters
    own = {name: p.default for name, p in params.items() if p.kind == p.KEYWORD_ONLY}
    assert own == {o.name: o.param_default for o in spec.estimator_options()}
    # the estimator keeps a number: choosing C0 is GridSearchCV's job there (see estimator.py)
    assert SLIMClassifier().config() == TrainConfig(time_limit=60.0, c0=0.01)
    assert SLIMClassifier(c0="auto").config().c0 == "auto"
    assert SLIMClassifier(signs={"a": "+"}, c0=0.05).config().signs == {"a": "+"}
    with pytest.raises(ConfigError, match="--c0: -1 is not valid"):
        SLIMClassifier(c0=-1).config()


def test_readme_holds_the_spec_s_table():
    text = README.read_text(encoding="utf-8")
    table = spec.markdown_table()
    assert table in text, "README.md's options table differs from spec.markdown_table(); paste its output"
    training = text[text.index("## Training"):text.index("\n## ", text.index("## Training") + 1)]
    assert table in training
    rows = [line for line in training.splitlines() if line.startswith("|")]
    assert rows == table.splitlines()  # exactly that table, no hand-written rows beside it
