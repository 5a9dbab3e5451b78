"""Tricky numeric cells (issue 12 item 8): each cell and how the runtime reads it, the one
grammar of docs/contract.md ("Score semantics", reading values) that every export implements.

``READ[cell]`` is the number the runtime reads, ``None`` for a missing (blank) cell, or
``REFUSED`` for a cell that is not a number.
"""
from __future__ import annotations

REFUSED = "refused"

READ: dict[str, object] = {
    # plain decimal forms, signs, exponents
    "5": 5, "+5": 5, "-5": -5, "007": 7, "-0": 0, "5.": 5, ".5": 0.5, "-.5e1": -5, "0.1": 0.1, "1.5": 1.5,
    "1e3": 1000, "1E+3": 1000, "1e-3": 0.001, "1e-999": 0, "2.5e-1": 0.25,
    # whitespace Python's str.strip() removes is stripped, nothing else
    " 5 ": 5, "\t5\n": 5, "\xa05\u3000": 5, "\x1c5\x1f": 5, "\x855\u2028": 5, "\u20025\u205f": 5,
    # blank: missing
    "": None, " ": None, "\u3000": None, "\x1c\x1d": None, "\xa0\t": None,
    # huge integers: the nearest double (integral values within 2^53 stay integers)
    "9007199254740992": 2**53, "9007199254740993": float(2**53), "-9007199254740993": -float(2**53),
    "123456789012345678901234567890": 1.2345678901234568e29, "1e30": 1e30,
    # refused: other bases, underscores, non-ASCII digits, BOM and invisible characters,
    # infinities and NaN, malformed forms
    "0x10": REFUSED, "0X10": REFUSED, "0b11": REFUSED, "0o17": REFUSED, "1_0": REFUSED, "1_000.5": REFUSED,
    "\u0663": REFUSED, "\u0661\u0660": REFUSED, "\uff11\uff12": REFUSED, "\u0967": REFUSED,
    "\ufeff5": REFUSED, "5\ufeff": REFUSED, "\ufeff": REFUSED, "\u200b5": REFUSED,
    "inf": REFUSED, "-inf": REFUSED, "Infinity": REFUSED, "nan": REFUSED, "NaN": REFUSED,
    "1e999": REFUSED, "-1e999": REFUSED, "1" + "0" * 400: REFUSED,
    "+-5": REFUSED, "--5": REFUSED, ".": REFUSED, "1e": REFUSED, "e3": REFUSED, "1e5.5": REFUSED,
    "1,5": REFUSED, "5 5": REFUSED, "0x": REFUSED, "5e+": REFUSED, "\u22125": REFUSED,
}
