"""The committed golden exports: what the code exporters write for a few fixed models.

A change to generated code shows up as a readable diff of these files in review. After an
intended change, regenerate them with one command:

    python tests/exporters/code_golden.py

(ONNX is kept in onnx.printer's text form, which reads like the graph it is, with named inputs
and with ``--onnx-input matrix``; PMML as the XML it is.)
"""
from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

from code_models import breastcancer_model, heart_model, mushroom_model, unmet_model  # noqa: E402
from scorecard.exporters import onnx as onnx_export  # noqa: E402
from scorecard.exporters import pmml as pmml_export  # noqa: E402
from scorecard.exporters import python as python_export  # noqa: E402
from scorecard.exporters import sql as sql_export  # noqa: E402
from scorecard.exporters.sql_dialects import DIALECTS  # noqa: E402

FOLDER = HERE / "golden"
MODELS = {"breastcancer": breastcancer_model, "mushroom": mushroom_model, "heart": heart_model,
          "unmet": unmet_model}


def renderings() -> dict[str, str]:
    """File name -> the text every golden file should hold."""
    import onnx

    out = {}
    for name, build in MODELS.items():
        model = build()
        out[f"{name}.py"] = python_export.render(model)
        for dialect in DIALECTS:
            out[f"{name}.{dialect}.sql"] = sql_export.render(model, dialect=dialect)
        out[f"{name}.onnx.txt"] = onnx.printer.to_text(onnx_export.build(model)) + "\n"
        out[f"{name}.onnx-matrix.txt"] = onnx.printer.to_text(onnx_export.build(model, "matrix")) + "\n"
        out[f"{name}.pmml"] = pmml_export.render(model)
    model = unmet_model()  # with reason codes (--explain 3): missing values, an unknown row, ties
    for dialect in DIALECTS:
        out[f"unmet.explain.{dialect}.sql"] = sql_export.render(model, dialect=dialect, explain=3)
    out["unmet.explain.onnx.txt"] = onnx.printer.to_text(onnx_export.build(model, explain=3)) + "\n"
    return out


def main() -> None:
    FOLDER.mkdir(exist_ok=True)
    for file_name, text in renderings().items():
        (FOLDER / file_name).write_text(text, encoding="utf-8")
    print(f"wrote {len(renderings())} files to {FOLDER}")


if __name__ == "__main__":
    main()
