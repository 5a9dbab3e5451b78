"""TrainConfig: every training option in one frozen, validated object.

The CLI flags, the ``--config FILE.toml`` file and the Python API all build one of these;
its fields, defaults and checks come from ``spec.py`` (the one table of options), and
``__post_init__`` is the one place options are checked, each message saying how to fix the
value (scikit-learn's way: validate once, at the boundary).
"""
from __future__ import annotations

import difflib
from dataclasses import fields, make_dataclass, replace
from typing import Any, Mapping

from scorecard.runtime.errors import ConfigError

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

from . import spec
from .constraints import normalize_config, plain_params
from .spec import LOSSES, MISSING, MODELS, SOLVERS  # noqa: F401  (their home is spec.py)

DATA_KEYS = tuple(o.name for o in spec.OPTIONS if o.toml and not o.field)  # target, positive


class _Methods:
    """What ``TrainConfig`` does besides holding the options (its fields come from the spec)."""

    def __post_init__(self) -> None:
        # The one place options are checked and normalized, while the instance is being built:
        # spec.validate checks each value and the rules between them, normalize_config turns
        # the constraint language into its dataclasses (a pure function), and its values are
        # set here, before anyone can see the instance.
        values = {f.name: getattr(self, f.name) for f in fields(self)}
        spec.validate(values)
        for name, value in normalize_config(values).items():
            object.__setattr__(self, name, value)

    def with_options(self, **changes: Any) -> "TrainConfig":
        """A copy with some options changed (validated again)."""
        return replace(self, **changes)

    def to_params(self) -> dict:
        """The options as plain JSON values, for ``training.params`` in the model file."""
        out = {}
        for f in fields(self):
            v = getattr(self, f.name)
            out[f.name] = dict(v) if isinstance(v, Mapping) else list(v) if isinstance(v, tuple) else v
        out.update(plain_params(self))
        return out


TrainConfig = make_dataclass(
    "TrainConfig", [(o.name, o.type, o.dataclass_default) for o in spec.config_options()],
    bases=(_Methods,), frozen=True, namespace={"__module__": __name__})
TrainConfig.__doc__ = """Options of ``scorecard train``, one frozen, validated object.

Generated from :data:`spec.OPTIONS` (names match the CLI flags, with ``_`` for ``-``; see
spec.py for each option's type, default, check and help). Built from CLI flags, a TOML file
or the Python API; construction validates every value once and raises ``ConfigError``.
"""


def option_names() -> tuple[str, ...]:
    """Every key a config file may hold (the spec's TOML keys: TrainConfig fields and the data keys)."""
    return spec.toml_keys()


def load_toml(path: str) -> dict:
    """The options of a ``--config FILE.toml``, keys as TrainConfig names (``-`` read as ``_``).

    Refuses an unreadable file and an unknown key (naming the closest known one); values
    are checked where every option is, in :class:`TrainConfig`. Lists become tuples.
    """
    try:
        with open(path, "rb") as fh:
            raw = tomllib.load(fh)
    except FileNotFoundError:
        raise ConfigError(f"{path}: no such config file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: cannot read the config file ({exc})") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: not valid TOML ({exc})") from None
    known = option_names()
    options: dict = {}
    for key, value in raw.items():
        name = key.replace("-", "_")
        if name == "meta":  # the model's metadata, not a training option (scorecard/metadata.py)
            continue
        if name not in known:
            close = difflib.get_close_matches(name, known, n=1)
            hint = f"; did you mean {close[0]!r}?" if close else f" (known: {', '.join(known)})"
            raise ConfigError(f"{path}: unknown option {key!r}{hint}")
        options[name] = tuple(value) if isinstance(value, list) else value
    return options


PER_COLUMN = spec.per_column()  # signs, coefficients, c0_by_input, cuts, numeric_by_input


def merge(file_options: Mapping[str, Any], flags: Mapping[str, Any]) -> dict:
    """Config-file options overridden by the command-line flags that were given (not None).

    Per-column tables (``signs``, ``coefficients``, ``c0_by_input``, ``cuts``) merge per column,
    so ``--sign A=-`` changes A and keeps the file's other signs.
    """
    merged = dict(file_options)
    for name, value in flags.items():
        if value is None:
            continue
        if name in PER_COLUMN:
            value = {**dict(merged.get(name) or {}), **value}
        merged[name] = value
    return merged
