"""The paper's scaling experiment (Section 4.1): logistic-loss SLIM by cutting planes, N = 10^3..10^7.

Data: two 5-dim Gaussians (means 2 and 0, identity covariance, half each class); loss
logistic; C0 = 0.9/N; intercept and coefficients integers in [-10, 10]. The proven optimum
is (-10, 2, 2, 2, 2, 2) for large N. Each (N, method) runs in its own process, so the peak
RSS (``ru_maxrss``) is that run's; the time is the fit only (the data are made first).

    ours      trainer/decompose.py: curvature certificate + Algorithm 1 on one persistent HiGHS
              master, float32 column-major oracle (trainer/losses.py).
    baseline  a plain Benders loop: PuLP + HiGHS master rebuilt every round, plain float64
              numpy oracle, started at 0 (what a direct implementation of Algorithm 1 does).

    python benchmarks/scale.py                 # N = 1e3..1e7, median of 3, baseline up to 1e5
    python benchmarks/scale.py --parquet       # also 1e8 rows streamed from a Parquet file
    python benchmarks/scale.py --write         # and write the section of benchmarks/RESULTS.md
    python benchmarks/scale.py --cli --baseline /work/main/.venv/bin/scorecard --write
                                               # the command line on files instead (sections scale-cli, scale_cli)
    python benchmarks/scale.py --cli --predict-only --baseline /work/main/.venv/bin/scorecard --write
                                               # predict, and the 10^7 logistic line added to scale_cli
    python benchmarks/scale.py --cli --streaming-only --write   # the big-files section (scale_cli) alone
    python benchmarks/scale.py --cli --predict-only --data-dir /tmp/sim --baseline ... --write
                                               # the same, the simulated files kept in /tmp/sim and reused

The command-line mode (``--cli``, issue 16) runs every command in a process of its own and
writes two sections:

* scale-cli, train and predict on files: ``scorecard train`` on the same data written as one
  Parquet file and as CSV (by pandas), and ``scorecard predict`` on the CSV: wall time and peak
  RSS (``ru_maxrss`` of a wrapper's children, one wrapper per command). ``--baseline`` names a
  ``scorecard`` executable of the code before the change, run on ``--baseline-rows`` rows in the
  same run.
* scale_cli, big files (streaming): the Parquet logistic command at 10^7 rows (streamed above
  the default memory budget), the same command on 10^6 rows through the in-memory reader
  (``--memory-limit 1T``: the path before streaming, the baseline), the 0-1 loss on 2,000,000
  rows x 10 integer columns at ``--time-limit 30`` against the same command on a 100,000-row
  random sample (training error of both on all 2,000,000 rows), and with ``--parquet`` 10^8 rows
  streamed from Parquet.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from results import section, write_section

HERE = Path(__file__).resolve().parent
OPTIMUM = [-10, 2, 2, 2, 2, 2]


def gaussians(n: int, seed: int = 0, rows: int = 1 << 22):
    """The simulated data in float32, made in pieces (X n x 5, y in {-1, +1} as int8)."""
    X = np.empty((n, 5), dtype=np.float32)
    y = np.empty(n, dtype=np.int8)
    rng = np.random.default_rng(seed)
    for a in range(0, n, rows):
        b = min(a + rows, n)
        y[a:b] = np.where(rng.random(b - a) < 0.5, 1, -1)
        X[a:b] = rng.standard_normal((b - a, 5), dtype=np.float32)
        X[a:b] += np.where(y[a:b] > 0, 2.0, 0.0).astype(np.float32)[:, None]
    return X, y


def space(n: int):
    from scorecard.trainer.convex.lattice import CoefficientSpace

    return CoefficientSpace(lower=(-10,) * 6, upper=(10,) * 6, c0=(0.0,) + (0.9 / n,) * 5)


def run_ours(n: int, threads: int) -> dict:
    from scorecard.trainer.convex.cutting_planes import cutting_planes
    from scorecard.trainer.convex.losses import ArrayOracle

    X, y = gaussians(n)
    start = time.perf_counter()
    oracle = ArrayOracle.from_xy(X, y, threads=threads)
    result = cutting_planes(oracle, space(n), time_limit=600, threads=1)
    seconds = time.perf_counter() - start
    return {"seconds": seconds, "iterations": result.iterations, "passes": result.passes, "proof": result.proof,
            "status": result.status, "gap": result.gap, "model": result.coefficients.astype(int).tolist()}


def run_parquet(n: int, path: str) -> dict:
    from scorecard.trainer.convex.cutting_planes import cutting_planes
    from scorecard.trainer.convex.losses import ParquetOracle, ParquetSource

    start = time.perf_counter()
    oracle = ParquetOracle(ParquetSource(path, tuple(f"x{j}" for j in range(5)), "y", 1))
    result = cutting_planes(oracle, space(n), time_limit=3600)
    seconds = time.perf_counter() - start
    return {"seconds": seconds, "iterations": result.iterations, "passes": result.passes, "proof": result.proof,
            "status": result.status, "gap": result.gap, "model": result.coefficients.astype(int).tolist()}


def run_baseline(n: int, cap: float) -> dict:
    """Algorithm 1 as written: PuLP master (HiGHS) rebuilt each round, float64 oracle, from 0."""
    import pulp

    X, y = gaussians(n)
    start = time.perf_counter()
    Z = np.hstack([np.ones((n, 1)), X.astype(np.float64)]) * y[:, None]
    c0 = 0.9 / n

    def oracle(lam):
        m = Z @ lam
        return float(np.logaddexp(0.0, -m).mean()), -(Z.T @ (1.0 / (1.0 + np.exp(m)))) / n

    cuts, seen = [], set()
    lam, upper, lower, best, rounds = np.zeros(6), math.inf, -math.inf, None, 0
    status = "time_limit"
    while time.perf_counter() - start < cap:
        value, grad = oracle(lam)
        cuts.append((lam.copy(), value, grad))
        seen.add(tuple(lam))
        objective = value + c0 * np.count_nonzero(lam[1:])
        if objective < upper:
            upper, best = objective, lam.copy()
        prob = pulp.LpProblem("master", pulp.LpMinimize)
        v = [pulp.LpVariable(f"l{j}", -10, 10, cat="Integer") for j in range(6)]
        a = [pulp.LpVariable(f"a{j}", cat="Binary") for j in range(1, 6)]
        theta = pulp.LpVariable("theta", 0)
        prob += theta + c0 * pulp.lpSum(a)
        for j in range(1, 6):
            prob += v[j] <= 10 * a[j - 1]
            prob += v[j] >= -10 * a[j - 1]
        for point, val, g in cuts:
            prob += theta >= val + pulp.lpSum(float(g[j]) * (v[j] - float(point[j])) for j in range(6))
        prob.solve(pulp.HiGHS(msg=False, gapRel=0.0, gapAbs=1e-10))
        rounds += 1
        lower = pulp.value(prob.objective)
        lam = np.array([round(x.value()) for x in v], dtype=np.float64)
        if upper - lower <= 0.1 * c0 or tuple(lam) in seen:
            status = "optimal"
            break
    return {"seconds": time.perf_counter() - start, "iterations": rounds, "passes": len(cuts), "proof": "cuts",
            "status": status, "gap": max(upper - lower, 0.0), "model": np.asarray(best).astype(int).tolist()}


def write_parquet(n: int, path: str, rows: int = 1 << 22) -> None:
    """The simulated data as a Parquet file, written in row groups (bounded memory)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    writer = None
    for a in range(0, n, rows):
        X, y = gaussians(min(rows, n - a), seed=1 + a // rows)
        table = pa.table({**{f"x{j}": X[:, j] for j in range(5)}, "y": (y > 0).astype(np.int8)})
        writer = writer or pq.ParquetWriter(path, table.schema)
        writer.write_table(table)
    writer.close()


def child(args: argparse.Namespace) -> None:
    """One measurement, in this process: prints one JSON line."""
    if args.method == "ours":
        out = run_ours(args.n, args.threads)
    elif args.method == "parquet":
        out = run_parquet(args.n, args.path)
    else:
        out = run_baseline(args.n, args.cap)
    out["rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps(out))


def measure(n: int, method: str, extra: list[str]) -> dict:
    cmd = [sys.executable, __file__, "--child", "--n", str(n), "--method", method, *extra]
    done = subprocess.run(cmd, capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def summary(runs: list[dict]) -> dict:
    first = runs[0]
    return {"seconds": statistics.median(r["seconds"] for r in runs), "rss_mb": max(r["rss_mb"] for r in runs),
            "iterations": first["iterations"], "passes": first["passes"], "proof": first["proof"],
            "status": first["status"], "gap": first["gap"], "model": first["model"],
            "optimum": all(r["model"] == OPTIMUM for r in runs)}


def machine() -> str:
    model = next((line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name")),
                 platform.processor())
    return f"{model}, {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} at the start"


def table(results: dict, baseline: dict) -> list[str]:
    lines = ["| N | fit s (median) | peak RSS MB | master rounds | data passes | proof | status | model | "
             "baseline s | baseline rounds | speed-up |", "|---:|---:|---:|---:|---:|---|---|---|---:|---:|---:|"]
    for n, r in results.items():
        b = baseline.get(n)
        base = (f"{b['seconds']:.2f}{'' if b['status'] == 'optimal' else ' (cap)'} | {b['iterations']} | "
                f"{b['seconds'] / r['seconds']:.0f}x") if b else "- | - | -"
        lines.append(f"| {n:,} | {r['seconds']:.2f} | {r['rss_mb']:.0f} | {r['iterations']} | {r['passes']} | "
                     f"{r['proof']} | {r['status']} | {tuple(r['model'])} | {base} |")
    return lines



CLI_TRAIN = ["--target", "y", "--loss", "logistic", "--numeric", "linear", "--coef-min", "-10", "--coef-max", "10",
             "--intercept-min", "-10", "--intercept-max", "10", "--time-limit", "300"]


def write_csv(parquet: str, path: str) -> None:
    """The Parquet file's rows as CSV written by pandas, one row group at a time."""
    import pyarrow.parquet as pq

    pf = pq.ParquetFile(parquet)
    for k in range(pf.num_row_groups):
        pf.read_row_group(k).to_pandas().to_csv(path, mode="w" if k == 0 else "a", header=k == 0, index=False)


def timed(command: list[str]) -> dict:
    """Wall seconds and peak RSS (MB) of one command, run under a wrapper process of its own."""
    wrapper = ("import resource, subprocess, sys, time; t = time.perf_counter(); "
               "r = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True); "
               "u = resource.getrusage(resource.RUSAGE_CHILDREN); "
               "print(r.returncode, time.perf_counter() - t, u.ru_maxrss, u.ru_utime + u.ru_stime, "
               "repr(r.stderr[-300:]))")
    done = subprocess.run([sys.executable, "-c", wrapper, *command], capture_output=True, text=True, check=True)
    code, seconds, rss, cpu, err = done.stdout.strip().split(" ", 4)
    if int(code) != 0:
        raise RuntimeError(f"{' '.join(command)} exited {code}: {err}")
    return {"seconds": float(seconds), "rss_mb": int(rss) / 1024, "cpu": float(cpu)}


def cli_train(scorecard: str, data: str, n: int, out: str) -> dict:
    run = timed([scorecard, "train", data, *CLI_TRAIN, "--c0", repr(0.9 / n), "-o", out])
    model = json.loads(Path(out).read_text())
    coefficients = [model["intercept"]] + [t["points"] for t in model["terms"]]
    return run | {"fit": model["training"]["seconds"], "status": model["training"]["status"], "model": coefficients}


def cli_predict(scorecard: str, model: str, data: str, n: int, out: str, repeat: int) -> dict:
    """The median (by wall time) of ``repeat`` runs of ``scorecard predict``, and every run's wall time."""
    runs = sorted((timed([scorecard, "predict", model, data, "-o", out]) for _ in range(repeat)), key=lambda r: r["seconds"])
    run = runs[len(runs) // 2]
    return run | {"rows_per_s": n / run["seconds"], "walls": [r["seconds"] for r in runs]}


def files_main(args: argparse.Namespace) -> list[str]:
    """The train/predict-on-files measurements and their section's lines."""
    n, base_n = int(args.cli_rows), int(args.baseline_rows)
    ours = str(Path(sys.executable).with_name("scorecard"))
    rows, notes = [], []
    with tempfile.TemporaryDirectory() as tmp:
        files = {}
        for size in sorted({n, base_n}):
            folder = args.data_dir or tmp
            files[size] = (os.path.join(folder, f"sim{size}.parquet"), os.path.join(folder, f"sim{size}.csv"))
            if not (args.data_dir and all(os.path.exists(f) for f in files[size])):
                write_parquet(size, files[size][0])
                write_csv(*files[size])
        m = os.path.join(tmp, "m.json")
        for label, exe, size in [("ours", ours, n)] + ([("before", args.baseline, base_n)] if args.baseline else []):
            pq_run = cli_train(exe, files[size][0], size, m)
            rows.append((label, "train Parquet", size, pq_run))
            if not args.predict_only:
                csv_run = cli_train(exe, files[size][1], size, m)
                rows.append((label, "train CSV", size, csv_run))
            print(label, size, rows[-1], flush=True)
            linear = os.path.join(tmp, f"linear-{label}.json")
            Path(linear).write_text(Path(m).read_text())
            cuts = os.path.join(tmp, f"cuts-{label}.json")
            subprocess.run([exe, "train", files[base_n][0], "--target", "y", "--time-limit", "60", "-o", cuts],
                           check=True, capture_output=True)
            for kind, model in (("linear terms, float scores", linear), ("cuts, integer scores", cuts)):
                run = cli_predict(exe, model, files[size][1], size, os.path.join(tmp, "p.csv"), args.repeat)
                rows.append((label, f"predict CSV ({kind})", size, run))
                print(label, kind, size, run, flush=True)
    if args.baseline:
        notes.append(f"'before' is `{args.baseline}` (the code before the change), on {base_n:,} rows.")
    notes += [f"{label} {what}: median of {len(r['walls'])} runs, wall s " + ", ".join(f"{w:.2f}" for w in r["walls"]) + "."
              for label, what, _, r in rows if "walls" in r]
    lines = ["| code | command | rows | wall s | CPU s | peak RSS MB | fit s (training.seconds) | rows/s (wall) | "
             "rows/s (CPU) | status | model |", "|---|---|---:|---:|---:|---:|---:|---:|---:|---|---|"]
    for label, what, size, r in rows:
        fit = f"{r['fit']:.1f}" if "fit" in r else "-"
        speed = f"{r['rows_per_s'] / 1e6:.2f} M" if "rows_per_s" in r else "-"
        per_cpu = f"{size / r['cpu'] / 1e6:.2f} M" if "rows_per_s" in r else "-"
        model = tuple(r["model"]) if "model" in r else "-"
        lines.append(f"| {label} | {what} | {size:,} | {r['seconds']:.1f} | {r['cpu']:.1f} | {r['rss_mb']:.0f} | {fit} | "
                     f"{speed} | {per_cpu} | {r.get('status', '-')} | {model} |")
    return lines + [""] + notes


LOGISTIC = ["--target", "y", "--loss", "logistic", "--c0", "9e-8", "--coef-min", "-10", "--coef-max", "10",
            "--intercept-min", "-10", "--intercept-max", "10", "--numeric", "linear", "--time-limit", "300"]


def integers(n: int, seed: int = 0):
    """n rows x 10 integer columns (digits 0-9) and a 0/1 target that depends on five of them."""
    import pandas as pd

    rng = np.random.default_rng(seed)
    X = rng.integers(0, 10, (n, 10))
    logit = 0.6 * X[:, 0] - 0.4 * X[:, 1] + 0.3 * X[:, 2] - 0.2 * X[:, 3] + 0.5 * (X[:, 4] >= 7) - 2.0
    y = (rng.random(n) < 1 / (1 + np.exp(-logit))).astype(np.int8)
    return pd.DataFrame({**{f"v{j}": X[:, j].astype(np.int8) for j in range(10)}, "y": y})


def run_train(args: list[str], model: str) -> dict:
    """``scorecard train ARGS -o MODEL`` in its own process: wall s, peak RSS MB, the model file's facts."""
    scorecard = str(Path(sys.executable).with_name("scorecard"))
    start = time.perf_counter()
    proc = subprocess.Popen([scorecard, "train", *args, "-o", model], stderr=subprocess.PIPE, text=True)
    err = proc.stderr.read()
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    if status != 0:
        raise RuntimeError(f"scorecard train failed: {err}")
    m = json.load(open(model))
    t = m["training"]
    cp = t["params"].get("cutting_planes", {})
    return {"wall": wall, "rss_mb": usage.ru_maxrss / 1024, "seconds": t["seconds"], "status": t["status"],
            "fit": cp.get("oracle_seconds", 0) + cp.get("master_seconds", 0), "train_error": t["train_error"],
            "model": (m["intercept"], *[x["points"] for x in m["terms"]]), "stream": t["params"].get("stream"),
            "notes": [line for line in err.splitlines() if line.startswith("note:")], "file": model}


def full_error(model_path: str, frame) -> float:
    """A model's error on every row of ``frame`` (the runtime's rule: positive when the score,
    the card's points total, is > the model's threshold)."""
    from scorecard.runtime import load
    from scorecard.trainer.stream import points

    model = load(model_path)
    positive = frame["y"].to_numpy() == 1
    typed = frame.drop(columns="y").astype(np.float64)
    return float(np.mean((points(model, typed) > model.threshold) != positive))


def row(name: str, rows: int, r: dict) -> str:
    """One ``scorecard train`` run (``run_train``) as a line of the scale_cli table."""
    how = r["stream"]["oracle"] if r["stream"] and "oracle" in r["stream"] else \
        r["stream"]["problem"] if r["stream"] else "in memory (today's reader)"
    return (f"| {name} | {rows:,} | {r['wall']:.1f} | {r['rss_mb']:.0f} | {r['seconds']:.2f} | {r['fit']:.2f} | "
            f"{r['status']} | {r['model']} | {how} |")


TABLE = ["| run | rows | wall s | peak RSS MB | training.seconds | fit s (oracle + master) | status | model | how |",
         "|---|---:|---:|---:|---:|---:|---|---|---|"]


def streaming_main(args: argparse.Namespace) -> list[str]:
    """The big-file measurements (issue 16, streaming) and their section's lines."""
    out = []
    with tempfile.TemporaryDirectory() as tmp:
        big, small = os.path.join(tmp, "sim7.parquet"), os.path.join(tmp, "sim6.parquet")
        write_parquet(10**7, big)
        write_parquet(10**6, small)
        logistic = run_train([big, *LOGISTIC], os.path.join(tmp, "m7.json"))
        print("logistic 1e7", logistic, flush=True)
        if args.predict_only:
            return [*TABLE, row("logistic, Parquet (default budget)", 10**7, logistic)]
        base = run_train([small, *LOGISTIC, "--memory-limit", "1T"], os.path.join(tmp, "m6.json"))
        print("baseline 1e6", base, flush=True)
        ints = integers(2_000_000)
        zpath, spath = os.path.join(tmp, "ints.parquet"), os.path.join(tmp, "ints100k.parquet")
        ints.to_parquet(zpath)
        ints.sample(100_000, random_state=0).to_parquet(spath, index=False)  # no row-number column
        zero = run_train([zpath, "--target", "y", "--time-limit", "30"], os.path.join(tmp, "z.json"))
        sample = run_train([spath, "--target", "y", "--time-limit", "30"], os.path.join(tmp, "zs.json"))
        zero["all_error"], sample["all_error"] = full_error(zero["file"], ints), full_error(sample["file"], ints)
        print("zero-one", zero, "sample", sample, flush=True)
        del ints
        os.unlink(big)
        huge = None
        if args.parquet:
            hpath = os.path.join(tmp, "sim8.parquet")
            write_parquet(int(args.parquet_rows), hpath)
            huge = run_train([hpath, *LOGISTIC, "--time-limit", "3600"], os.path.join(tmp, "m8.json"))
            print("logistic 1e8", huge, flush=True)
    out += TABLE


    out.append(row("logistic, Parquet, streamed (default budget)", 10**7, logistic))
    out.append(row("baseline: logistic, Parquet, in memory (`--memory-limit 1T`)", 10**6, base))
    if huge is not None:
        out.append(row("logistic, Parquet, streamed", int(args.parquet_rows), huge))
    out.append(row("0-1 loss, 10 integer columns, `--time-limit 30`", 2_000_000, zero))
    out.append(row("0-1 loss, the same command on a random sample", 100_000, sample))
    out += ["", f"0-1 loss: training error on all 2,000,000 rows {100 * zero['all_error']:.2f} % (streamed, "
                f"grouped) against {100 * sample['all_error']:.2f} % (the model of the 100,000-row sample). "
                f"Notes printed: {' '.join(zero['notes'])}"]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1e3,1e4,1e5,1e6,1e7")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--baseline-max", type=float, default=1e5, help="largest N for the baseline")
    parser.add_argument("--cap", type=float, default=300.0, help="seconds before the baseline is stopped")
    parser.add_argument("--parquet", action="store_true", help="also 1e8 rows streamed from Parquet")
    parser.add_argument("--parquet-rows", type=float, default=1e8)
    parser.add_argument("--write", action="store_true", help="write the section of benchmarks/RESULTS.md")
    parser.add_argument("--cli", action="store_true",
                        help="the command line instead (sections scale-cli and scale_cli): issue 16")
    parser.add_argument("--cli-rows", type=float, default=1e7)
    parser.add_argument("--baseline", help="a scorecard executable of the code before the change (--cli)")
    parser.add_argument("--baseline-rows", type=float, default=1e6)
    parser.add_argument("--predict-only", action="store_true",
                        help="--cli: predict (and the Parquet training it needs) and the 10^7 logistic line only; "
                             "that line is added to the scale_cli section as a rerun, not replacing it")
    parser.add_argument("--data-dir", help="--cli: keep the simulated Parquet and CSV files in this folder and "
                                           "reuse them when there (the 10^7-row CSV takes minutes to write)")
    parser.add_argument("--streaming-only", action="store_true",
                        help="--cli: the big-files section (scale_cli) only, not train/predict on files (scale-cli)")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--n", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--method", default="ours", help=argparse.SUPPRESS)
    parser.add_argument("--path", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args)
        return
    started = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    where = machine()
    if args.cli and not args.streaming_only:
        body = files_main(args)
        lines = ["## Scaling on the command line: train and predict on files (benchmarks/scale.py --cli)", "",
                 f"{started}; {where}; Python {platform.python_version()}, numpy {np.__version__}.",
                 f"Command: `python benchmarks/scale.py {' '.join(sys.argv[1:])}`", "",
                 "The simulation above written to one Parquet file (five float32 columns, 0/1 target) and, by "
                 "pandas, to CSV; `scorecard train DATA --loss logistic --numeric linear --c0 0.9/N` with "
                 "coefficients and intercept in [-10, 10]; `scorecard predict` of that model (float scores) and "
                 "of a default (cuts) model trained on the smaller file (integer scores) on the CSV. Wall time, "
                 "CPU time (user + system, all threads) and peak RSS of each whole command: one run of each train, the "
                 "median of --repeat runs of each predict (its output over the file the run before wrote); "
                 "rows/s (CPU) is rows per CPU second, less sensitive to a shared machine's load.", "", *body]
        print("\n".join(lines))
        if args.write:
            write_section("scale-cli", "\n".join(lines))
        if args.predict_only:
            rerun = [f"Rerun of the 10^7 logistic line alone, {started}; {where}. Command: "
                     f"`python benchmarks/scale.py {' '.join(sys.argv[1:])}`", "", *streaming_main(args)]
            print("\n".join(rerun))
            if args.write:
                write_section("scale_cli", section("scale_cli") + "\n\n" + "\n".join(rerun))
            return
    if args.cli:
        lines = ["## Scaling on the command line: `scorecard train` on big files (benchmarks/scale.py --cli)", "",
                 f"{started}; {where}; Python {platform.python_version()}, numpy {np.__version__}.",
                 f"Command: `python benchmarks/scale.py {' '.join(sys.argv[1:])}`", "",
                 "Each run is one `scorecard train` process (wall time and peak RSS of that process). Logistic: "
                 f"`scorecard train DATA {' '.join(LOGISTIC)}` on the paper's simulation written to Parquet "
                 "(float32 columns, int8 target; `--numeric linear` gives the paper's design, as the command of "
                 "issue 16 did when linear was the default). fit s = the cutting planes' oracle and master time; "
                 "training.seconds also counts building the design and reading the rows into the oracle. "
                 "0-1 loss: `scorecard train DATA --target y --time-limit 30` (C0 by cross-validation).", "",
                 *streaming_main(args)]
        print("\n".join(lines))
        if args.write:
            write_section("scale_cli", "\n".join(lines))
        return
    results, baseline = {}, {}
    for n in (int(float(s)) for s in args.sizes.split(",") if s):
        results[n] = summary([measure(n, "ours", ["--threads", str(args.threads)]) for _ in range(args.repeat)])
        print(n, results[n], flush=True)
        if n <= args.baseline_max:
            baseline[n] = summary([measure(n, "baseline", ["--cap", str(args.cap)])])
            print(n, "baseline", baseline[n], flush=True)
    streamed = None
    if args.parquet:
        n = int(args.parquet_rows)
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "gaussians.parquet")
            write_parquet(n, path)
            streamed = summary([measure(n, "parquet", ["--path", path])])
        print(n, "parquet", streamed, flush=True)
    lines = [
        "## Scaling: logistic-loss SLIM by cutting planes (benchmarks/scale.py)",
        "",
        f"{started}; {where}; Python {platform.python_version()}, numpy {np.__version__}.",
        f"Command: `python benchmarks/scale.py {' '.join(sys.argv[1:])}`",
        "",
        "The paper's simulation (Section 4.1): two 5-dim Gaussians (means 2 and 0), logistic loss, "
        "C0 = 0.9/N, coefficients and intercept in [-10, 10]. Fit time only (data made first), median of "
        f"{args.repeat} runs each in its own process; peak RSS is the process's (data included). "
        "Baseline: Algorithm 1 as written (PuLP + HiGHS master rebuilt every round, float64 numpy oracle, "
        f"started at 0), one run, stopped after {args.cap:.0f} s. 'data passes' counts passes over all "
        "rows (loss/gradient or curvature); ours also makes a few on a 10^5-row subsample first.",
        "",
        *table(results, baseline),
    ]
    if streamed is not None:
        lines += ["", f"Streamed from Parquet ({int(args.parquet_rows):,} rows, one file, "
                      f"`ParquetOracle`): {streamed['seconds']:.1f} s, peak RSS {streamed['rss_mb']:.0f} MB, "
                      f"{streamed['passes']} passes, proof {streamed['proof']}, status {streamed['status']}, "
                      f"model {tuple(streamed['model'])}."]
    print("\n".join(lines))
    if args.write:
        write_section("scale", "\n".join(lines))


if __name__ == "__main__":
    main()
