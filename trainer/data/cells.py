"""A data file's cell as text: what every reader turns a non-text value into, so that a
Parquet column or an Excel cell types as the same data saved as CSV would."""
from __future__ import annotations

import math


def as_text(value: object) -> str | None:
    """A non-text value as the text a CSV would hold (floats round-trip exactly)."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return None
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer() and abs(value) < 2**53:
        return str(int(value))
    text = value if isinstance(value, str) else repr(value) if isinstance(value, float) else str(value)
    return None if text.strip() == "" else text
