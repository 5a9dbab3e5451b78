"""Where `scorecard predict` spends its CPU on a plain CSV file: each stage of the pipeline run
one after the other on one thread (pyarrow's and numpy's own work included), block by block, as
scorecard/vectorised.py runs them in its threads (the main thread reads, each scoring thread
parses and scores a block of its own). Start-up (imports, the model) is measured in a
fresh process of its own.

    python benchmarks/predict_stages.py DATA.csv MODEL.json [MODEL.json ...] [--repeat 3] [--write]

Prints CPU seconds per million rows of each stage (the median of --repeat runs), one column per
model; --write puts the table into benchmarks/RESULTS.md (section predict-stages). The file's rows are written to
/dev/null. Numbers are CPU time: on a busy machine they grow with the load (shared caches and
memory bandwidth), so compare stages within one run.
"""
from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import sys
import time

import numpy as np
import pyarrow.compute as pc
from results import write_section
from scorecard.runtime import load
from scorecard.trainer.data import csv_lines
from scorecard.vectorised import COMMA, ONE, ZERO, BatchScorer, booleans

STAGES = ["read the file (block by block, main thread)",
          "parse the model's columns, find the line ends (pyarrow CSV, numpy; scoring threads)", "line offsets", "values and missing cells", "totals (term by term)", "score text",
          "prediction text", "probability text", "join each row", "write"]


def once(model_path: str, data: str) -> tuple[dict[str, float], int]:
    """CPU seconds of each stage over the whole file, and its number of rows."""
    model = load(model_path)
    scorer = BatchScorer(model)
    used = [inp.name for inp in model.used_inputs]
    numbers = frozenset(inp.name for inp in model.used_inputs if inp.type != "categorical")
    header = csv_lines.csv_header(data, data, ())
    spent = dict.fromkeys(STAGES, 0.0)
    rows = 0
    with open(data, "rb") as fh, open(os.devnull, "wb") as sink:
        first = fh.readline()
        fh.seek(len(first) - 1)
        pending = b""
        while True:
            clock = time.process_time()
            block, more = csv_lines._read_after(fh, pending)
            if not more:
                break
            cut = block.rfind(b"\n")
            pending = bytes(block[cut:])
            del block[cut:]
            spent[STAGES[0]] += time.process_time() - clock
            marks = [time.process_time()]
            item = csv_lines._parse(block, header, used, numbers)
            marks.append(time.process_time())
            lines = item.lines()
            marks.append(time.process_time())
            columns, scored = scorer.read(item.batch)
            marks.append(time.process_time())
            total, is_float = scorer.totals(columns, item.num_rows)
            marks.append(time.process_time())
            floats = scored & is_float
            score = scorer.score_text(total, is_float, scored)
            marks.append(time.process_time())
            prediction = pc.if_else(booleans(total > model.threshold), ONE, ZERO)
            marks.append(time.process_time())
            cells = [score, prediction]
            if scorer.with_probability:
                cells.append(scorer.probability_text(total, floats.any()))
            marks.append(time.process_time())
            joined = pc.binary_join_element_wise(lines, *cells, COMMA)
            marks.append(time.process_time())
            offsets = np.frombuffer(joined.buffers()[1], dtype=np.int32)
            sink.write(memoryview(joined.buffers()[2])[offsets[0]:offsets[-1]])
            marks.append(time.process_time())
            for stage, a, b in zip(STAGES[1:], marks, marks[1:]):
                spent[stage] += b - a
            rows += item.num_rows
    return spent, rows


def start_up(model_path: str) -> float:
    """CPU seconds of `scorecard predict`'s imports and model loading, in a fresh process."""
    code = ("import time; from scorecard.cli import app; from scorecard.vectorised import score_file; "
            f"from scorecard.runtime import load; load({model_path!r}); print(time.process_time())")
    return float(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data")
    parser.add_argument("models", nargs="+", help="model files, one column of the table each")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args()
    started = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    load_at_start = os.getloadavg()[0]
    per_million, shares, totals, starts, rows = [], [], [], [], 0
    for model in args.models:
        runs = [once(model, args.data) for _ in range(args.repeat)]
        rows = runs[0][1]
        median = {stage: statistics.median(r[0][stage] for r in runs) for stage in STAGES}
        total = sum(median.values())
        per_million.append({stage: median[stage] / rows * 1e6 for stage in STAGES})
        shares.append({stage: 100 * median[stage] / total for stage in STAGES})
        totals.append(total / rows * 1e6)
        starts.append(statistics.median(start_up(model) for _ in range(args.repeat)))
    names = [os.path.basename(m) for m in args.models]
    lines = [f"`python benchmarks/predict_stages.py {' '.join(sys.argv[1:])}`: {rows:,} rows, {started}, "
             f"load average {load_at_start:.1f} at the start, {os.cpu_count()} cores, Python "
             f"{platform.python_version()}; CPU seconds per 10^6 rows (share of all stages), median of "
             f"{args.repeat}.", "",
             "| stage | " + " | ".join(names) + " |", "|---|" + "---:|" * len(names)]
    for stage in STAGES:
        lines.append(f"| {stage} | " + " | ".join(f"{p[stage]:.3f} ({s[stage]:.0f} %)"
                                                  for p, s in zip(per_million, shares)) + " |")
    lines.append("| all stages | " + " | ".join(f"{t:.3f}" for t in totals) + " |")
    lines.append("| start-up (imports, model), once per command | " + " | ".join(f"{s:.3f}" for s in starts) + " |")
    print("\n".join(lines))
    if args.write:
        write_section("predict-stages", "## Where `scorecard predict` spends its CPU (benchmarks/predict_stages.py)\n\n"
                      + "\n".join(lines))


if __name__ == "__main__":
    main()
