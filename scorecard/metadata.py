"""Model metadata from a TOML file and flags (issue 14 item 1): title, description, class names,
and per input a label, unit and description, kept in the model file's ``meta``.

The TOML form (``--meta FILE.toml``, or the ``[meta]`` table of ``--config``)::

    title = "Diabetes screening"
    description = "Pima women aged 21 and over; who to refer for a glucose tolerance test"
    [classes]
    negative = "no diabetes"
    positive = "diabetes"
    [inputs.glu]
    label = "Plasma glucose"
    unit = "mg/dL"
    description = "2 hours into an oral glucose tolerance test"

Flags (``--title``, ``--description``, ``--label COL=TEXT``, ``--unit COL=TEXT``) win over the
file, field by field. Every input named must be one of the model's (exit 2, naming it).
"""
from __future__ import annotations

from dataclasses import replace

from scorecard.runtime import Meta, Model
from scorecard.runtime.errors import ConfigError, ModelError, UsageError
from scorecard.runtime.model import meta_dict, meta_from_dict

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib


def read_toml(path: str, table: str | None = None) -> dict:
    """The metadata of a TOML file: the whole file, or its ``[table]`` (``{}`` when absent)."""
    try:
        with open(path, "rb") as fh:
            raw = tomllib.load(fh)
    except FileNotFoundError:
        raise ConfigError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: cannot read the file ({exc})") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: not valid TOML ({exc})") from None
    raw = raw.get(table, {}) if table else raw
    try:
        meta_dict(meta_from_dict(raw))  # the shape checked here, naming the file
    except ModelError as exc:
        raise ConfigError(f"{path}: {exc}") from None
    return raw


def combine(base: dict, title: str | None = None, description: str | None = None,
            labels: dict | None = None, units: dict | None = None) -> dict:
    """``base`` (the TOML form) with the flags given laid over it, field by field."""
    out = {key: value for key, value in base.items() if key != "inputs"}
    inputs = {name: dict(info) for name, info in (base.get("inputs") or {}).items()}
    for key, value in (("title", title), ("description", description)):
        if value is not None:
            out[key] = value
    for field, given in (("label", labels), ("unit", units)):
        for name, text in (given or {}).items():
            inputs.setdefault(name, {})[field] = text
    if inputs:
        out["inputs"] = inputs
    return out


def check_inputs(inputs: dict, known: set[str], source: str) -> None:
    """Refuse metadata for a column the model (or the data) does not have (exit 2)."""
    for name in inputs:
        if name not in known:
            raise UsageError(f"{source}: no column {name!r} among the inputs ({', '.join(sorted(known))})")


def apply(model: Model, raw: dict, source: str) -> Model:
    """``model`` with ``raw`` (the TOML form) merged into its meta; ``source`` names where the
    metadata came from in errors (an unknown input: exit 2)."""
    if not raw:
        return model
    merged = combine(meta_dict(model.meta), raw.get("title"), raw.get("description"))
    merged["classes"] = {**merged.get("classes", {}), **(raw.get("classes") or {})}
    inputs = {name: dict(info) for name, info in (merged.get("inputs") or {}).items()}
    for name, info in (raw.get("inputs") or {}).items():
        inputs.setdefault(name, {}).update(info)
    merged["inputs"] = inputs
    check_inputs(inputs, {inp.name for inp in model.inputs}, source)
    try:
        meta: Meta = meta_from_dict(merged)
        return replace(model, meta=meta)
    except ModelError as exc:
        raise UsageError(f"{source}: {exc}") from None
