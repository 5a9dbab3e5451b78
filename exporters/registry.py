"""The one registry of export formats (as sklearn-onnx keeps its converters).

Each exporter module registers itself once; registering a name twice is an error, never a
silent overwrite. ``get`` suggests the closest known name for a typo.
"""
from __future__ import annotations

import difflib
from dataclasses import dataclass
from typing import Callable

from scorecard.runtime import Model
from scorecard.runtime.errors import ExportError

__all__ = ["ExportError", "Exporter", "get", "names", "register", "render"]


@dataclass(frozen=True)
class Exporter:
    """A format: its name, file suffix, and ``render(model, **options) -> str | bytes``."""

    name: str
    suffix: str
    render: Callable[..., str | bytes]
    description: str
    binary: bool = False


_REGISTRY: dict[str, Exporter] = {}


def register(exporter: Exporter) -> Exporter:
    """Add a format; refuses a name that is already taken."""
    if exporter.name in _REGISTRY:
        raise ExportError(f"export format {exporter.name!r} is already registered")
    _REGISTRY[exporter.name] = exporter
    return exporter


def get(name: str) -> Exporter:
    """The exporter called ``name``, or an error naming the closest known format."""
    _load_builtins()
    try:
        return _REGISTRY[name]
    except KeyError:
        close = difflib.get_close_matches(name, list(_REGISTRY), n=1)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        raise ExportError(f"unknown export format {name!r} (known: {', '.join(names())}){hint}") from None


def names() -> list[str]:
    """Known format names, sorted."""
    _load_builtins()
    return sorted(_REGISTRY)


def render(model: Model, name: str, **options: object) -> str | bytes:
    """Render ``model`` in format ``name``."""
    return get(name).render(model, **options)


BUILTINS = ("html", "latex", "python", "sql", "onnx", "pmml", "text")


def _load_builtins() -> None:
    """Import the built-in exporter modules (each registers itself on import)."""
    import importlib

    for mod in BUILTINS:
        importlib.import_module(f"scorecard.exporters.{mod}")
