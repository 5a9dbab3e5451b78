"""trainer.config: TOML config files and how they merge with command-line flags."""
from __future__ import annotations

import pytest
from scorecard.runtime.errors import ConfigError
from scorecard.trainer.options.config import TrainConfig, load_toml, merge


def test_toml_keys_in_cli_or_field_spelling_become_options(write):
    path = write("c.toml", 'target = "Benign"\nmax-features = 3\nc0 = 0.05\ncoef_set = [-2, 0, 2]\n'
                           '[signs]\nBareNuclei = "+"\n')
    options = load_toml(str(path))
    assert options == {"target": "Benign", "max_features": 3, "c0": 0.05, "coef_set": (-2, 0, 2),
                       "signs": {"BareNuclei": "+"}}
    config = TrainConfig(**{k: v for k, v in options.items() if k != "target"})
    assert config.max_features == 3 and config.coef_set == (-2, 0, 2)


def test_unknown_key_names_the_closest_option(write):
    path = write("c.toml", "max_feature = 3\n")
    with pytest.raises(ConfigError, match=r"c.toml: unknown option 'max_feature'; did you mean 'max_features'"):
        load_toml(str(path))


@pytest.mark.parametrize("text, message", [("c0 = \n", "not valid TOML"), ("", None)])
def test_bad_toml_is_refused_and_empty_toml_is_no_options(write, text, message):
    path = write("c.toml", text)
    if message is None:
        assert load_toml(str(path)) == {}
    else:
        with pytest.raises(ConfigError, match=message):
            load_toml(str(path))


def test_missing_config_file(tmp_path):
    with pytest.raises(ConfigError, match="no such config file"):
        load_toml(str(tmp_path / "none.toml"))


def test_flags_win_and_signs_merge_per_column():
    file_options = {"c0": 0.1, "max_features": 3, "signs": {"A": "+", "B": "-"}}
    flags = {"c0": 0.01, "max_features": None, "signs": {"B": "+"}}
    assert merge(file_options, flags) == {"c0": 0.01, "max_features": 3, "signs": {"A": "+", "B": "+"}}


def test_values_from_a_file_are_checked_like_flags(write):
    options = load_toml(str(write("c.toml", 'time_limit = 0\n')))
    with pytest.raises(ConfigError, match="--time-limit: 0 is not valid"):
        TrainConfig(**options)
    with pytest.raises(ConfigError, match="--sign"):
        TrainConfig(signs="A=+")
