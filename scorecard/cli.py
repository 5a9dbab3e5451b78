"""The ``scorecard`` command line (typer): parses, wires the packages together, maps errors.

Every failure a user can cause ends in one line on standard error (``error: ...``) and exit
code 2, no traceback; ``verify`` disagreement is 1 and an infeasible training problem is 3
(docs/contract.md, "Exit codes"). Output files are written all or nothing.
"""
from __future__ import annotations

import functools
import inspect
import io
import os
import sys
from typing import Annotated, Optional

import typer

try:  # typer >= 0.26 carries its own click
    from typer._click import exceptions as click_errors
except ImportError:  # older typer runs on the click package
    from click import exceptions as click_errors

from scorecard.runtime.files import atomic_output, write_atomic

EXIT_DISAGREE, EXIT_USAGE, EXIT_INFEASIBLE = 1, 2, 3


class UsageError(ValueError):
    """A command line that cannot work (a missing or malformed option)."""


class Infeasible(Exception):
    """No model satisfies the constraints (exit 3)."""


class _App(typer.Typer):
    """The typer app, run through :func:`main` so every error becomes one line and an exit code."""

    def __call__(self, *args, **kwargs):
        sys.exit(main())


app = _App(name="scorecard", add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False,
           help="Train provably optimal integer scoring systems (SLIM) and export them anywhere.")


def main(argv: list[str] | None = None) -> int:
    """Run the command line on ``argv`` (default: ``sys.argv[1:]``) and return the exit code."""
    command = typer.main.get_command(app)
    try:
        code = command.main(args=argv, prog_name="scorecard", standalone_mode=False)
    except click_errors.NoArgsIsHelpError:
        return EXIT_USAGE  # typer has printed the help
    except click_errors.ClickException as exc:
        return _fail(exc.format_message())
    except _user_errors() as exc:
        return _fail(str(exc))
    except Infeasible as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_INFEASIBLE
    except UnicodeDecodeError as exc:
        return _fail(f"not UTF-8 text ({exc.reason} at byte {exc.start})")
    except OSError as exc:
        where = f"{exc.filename}: " if exc.filename else ""
        return _fail(f"{where}{exc.strerror or exc}")
    return code if isinstance(code, int) else 0


USER_ERRORS = {  # module -> the error it raises for bad input (exit 2)
    "scorecard.trainer.options.config": "ConfigError", "scorecard.trainer.data.prepare": "DataError",
    "scorecard.runtime.model": "ModelError", "scorecard.runtime.score": "RowError",
    "scorecard.exporters.registry": "ExportError",
}


def _user_errors() -> tuple[type[Exception], ...]:
    """The bad-input error classes of the modules loaded so far (a module not imported
    raised nothing), so ``scorecard show`` need not import pandas just to catch DataError."""
    loaded = [getattr(sys.modules[name], cls) for name, cls in USER_ERRORS.items() if name in sys.modules]
    return (UsageError, *loaded)


def _fail(message: str) -> int:
    print("error: " + " ".join(message.split()), file=sys.stderr)
    return EXIT_USAGE


def _say(message: str) -> None:
    print(message, file=sys.stderr)


# ---------------------------------------------------------------------------- train

Data = Annotated[str, typer.Argument(metavar="DATA", help="CSV file (or Parquet with pyarrow installed).", show_default=False)]
ModelPath = Annotated[str, typer.Argument(metavar="MODEL.json", help="A model file written by 'scorecard train'.", show_default=False)]
Target = Annotated[Optional[str], typer.Option("--target", help="The outcome column.")]
Positive = Annotated[Optional[str], typer.Option("--positive", help="The target value of the positive class.")]
Kind = Annotated[Optional[str], typer.Option("--model", help="slim, mofn, pilm or tilm.")]
C0 = Annotated[Optional[float], typer.Option("--c0", help="Accuracy given up per feature (L0 penalty).")]
CoefMin = Annotated[Optional[int], typer.Option("--coef-min", help="Smallest coefficient.")]
CoefMax = Annotated[Optional[int], typer.Option("--coef-max", help="Largest coefficient.")]
CoefSet = Annotated[Optional[str], typer.Option("--coef-set", help="Allowed coefficients, e.g. -5,-1,0,1,5.")]
InterMin = Annotated[Optional[int], typer.Option("--intercept-min", help="Smallest intercept.")]
InterMax = Annotated[Optional[int], typer.Option("--intercept-max", help="Largest intercept.")]
MaxFeatures = Annotated[Optional[int], typer.Option("--max-features", help="At most this many features.")]
MinFeatures = Annotated[Optional[int], typer.Option("--min-features", help="At least this many features.")]
Sign = Annotated[Optional[list[str]], typer.Option("--sign", help="COL=+ or COL=- (repeat for more columns).")]
MaxFpr = Annotated[Optional[float], typer.Option("--max-fpr", help="Highest false positive rate on training data.")]
MinTpr = Annotated[Optional[float], typer.Option("--min-tpr", help="Lowest true positive rate on training data.")]
MaxPosRate = Annotated[Optional[float], typer.Option("--max-positive-rate", help="Highest share predicted positive.")]
WPos = Annotated[Optional[float], typer.Option("--w-pos", help="Weight of the positive class, in (0, 1).")]
Loss = Annotated[Optional[str], typer.Option("--loss", help="zero-one, logistic, hinge, exponential or quadratic.")]
Solver = Annotated[Optional[str], typer.Option("--solver", help="auto, cbc, highs, cplex, gurobi or cpsat.")]
TimeLimit = Annotated[Optional[float], typer.Option(
    "--time-limit", help="Seconds the command may take: for the whole command, all phases and folds.")]
Threads = Annotated[Optional[int], typer.Option("--threads", help="Solver threads.")]
Seed = Annotated[Optional[int], typer.Option("--seed", help="Random seed (solver, folds).")]
Missing = Annotated[Optional[str], typer.Option("--missing", help="null (refuse), drop or impute.")]
Coefficients = Annotated[Optional[list[str]], typer.Option(
    "--coefficients", help="COL=SET: COL's allowed coefficients, e.g. Age=0..5, Age=0,1,2,5 or "
    "Income=two_significant_digits (repeat for more columns).")]
C0For = Annotated[Optional[list[str]], typer.Option("--c0-for", help="COL=X: COL's own C0 (repeat).")]
Cuts = Annotated[Optional[list[str]], typer.Option("--cuts", help="COL=40,60: thresholds for M-of-N/TILM rules (repeat).")]
InterSet = Annotated[Optional[str], typer.Option("--intercept-set", help="Allowed intercepts, e.g. -10,-5,0.")]
MaxThresholds = Annotated[Optional[int], typer.Option("--max-thresholds", help="Automatic thresholds per numeric column (M-of-N, TILM).")]
Negations = Annotated[Optional[bool], typer.Option("--negations/--no-negations", help="M-of-N: offer each rule's negation.")]
CFeature = Annotated[Optional[float], typer.Option("--c-feature", help="TILM: price of each column used.")]
CRule = Annotated[Optional[float], typer.Option("--c-rule", help="TILM: price of each extra rule on a column.")]
MaxRules = Annotated[Optional[int], typer.Option("--max-rules-per-feature", help="TILM: rules per column at most.")]
ImputePenalty = Annotated[Optional[bool], typer.Option(
    "--impute-penalty/--no-impute-penalty", help="An imputed column costs C0 + M/N (M imputed of N rows).")]
Reduce = Annotated[Optional[bool], typer.Option("--reduce/--no-reduce", help="Data reduction before solving (Section 4.2).")]
ReduceWidth = Annotated[Optional[float], typer.Option(
    "--reduce-width", help="Level-set width eps of --reduce (default: warm start's objective - proxy optimum).")]
Config = Annotated[Optional[str], typer.Option("--config", help="TOML file of these options; flags win.")]
Verbose = Annotated[Optional[bool], typer.Option("--verbose/--quiet", help="Show the solver's log.")]


def _numbers(text: str | None, option: str) -> tuple[float, ...] | None:
    """``"-5,-1,0,1,5"`` -> (-5, -1, 0, 1, 5); integral values as ints."""
    if text is None:
        return None
    values = []
    for part in text.split(","):
        try:
            value = float(part)
        except ValueError:
            raise UsageError(f"{option}: {part.strip()!r} in {text!r} is not a number") from None
        values.append(int(value) if value.is_integer() else value)
    return tuple(values)


def _per_column(items: list[str] | None, option: str, read=lambda text: text, form: str = "COL=VALUE") -> dict | None:
    """``["Age=+", "Income=-"]`` -> {"Age": "+", "Income": "-"}: repeated COL=VALUE flags, the
    column name being everything before the last '=' (names may hold '=' themselves)."""
    if not items:
        return None
    values = {}
    for item in items:
        column, eq, value = item.rpartition("=")
        if not eq or not column:
            raise UsageError(f"{option}: {item!r} is not {form}")
        values[column] = read(value)
    return values


def _number(text: str, option: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise UsageError(f"{option}: {text!r} is not a number") from None


def _load_data(path: str, target: str, positive, missing: str):
    from scorecard.trainer.data.prepare import prepare, read_table

    data = prepare(read_table(path), target, positive, missing, source=path)
    for note in data.notes:
        _say(f"note: {note}")
    if data.dropped_rows:
        _say(f"note: dropped {data.dropped_rows} rows with missing values ({len(data.y)} left)")
    for name, value in data.imputed.items():
        _say(f"note: column {name!r}: {data.missing_counts[name]} missing values imputed as {value!r}")
    return data


def _deadline(config):
    """``--time-limit`` from the start of the process: start-up, reading and writing count
    (the time to write the output and exit is kept back)."""
    from scorecard.trainer.solvers.options import EXIT_SECONDS, Deadline, process_start

    return Deadline.after(config.time_limit, start=process_start()).earlier(min(EXIT_SECONDS, 0.05 * config.time_limit))


def _train(data, config, progress, deadline):
    from scorecard.runtime.errors import InfeasibleError
    from scorecard.trainer.train import train

    try:
        return train(data, config, progress=progress, deadline=deadline)
    except InfeasibleError as exc:
        raise Infeasible(str(exc)) from None


TRAIN_OPTIONS = (
    ("target", Target), ("positive", Positive), ("model", Kind), ("c0", C0), ("coef_min", CoefMin),
    ("coef_max", CoefMax), ("coef_set", CoefSet), ("intercept_min", InterMin), ("intercept_max", InterMax),
    ("max_features", MaxFeatures), ("min_features", MinFeatures), ("sign", Sign), ("max_fpr", MaxFpr),
    ("min_tpr", MinTpr), ("max_positive_rate", MaxPosRate), ("w_pos", WPos), ("loss", Loss), ("solver", Solver),
    ("time_limit", TimeLimit), ("threads", Threads), ("seed", Seed), ("missing", Missing), ("config", Config),
    ("verbose", Verbose), ("coefficients", Coefficients), ("c0_for", C0For), ("cuts", Cuts),
    ("intercept_set", InterSet), ("max_thresholds", MaxThresholds), ("negations", Negations),
    ("c_feature", CFeature), ("c_rule", CRule), ("max_rules_per_feature", MaxRules),
    ("impute_penalty", ImputePenalty), ("reduce", Reduce), ("reduce_width", ReduceWidth),
)


def with_train_options(command):
    """Give ``command`` every training option (typer reads the signature); it receives them
    as one dict, ``options``, so ``train`` and ``cv`` share one list of flags."""
    own = [p for p in inspect.signature(command, eval_str=True).parameters.values() if p.name != "options"]
    added = [inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=None, annotation=kind)
             for name, kind in TRAIN_OPTIONS]

    @functools.wraps(command)
    def run(**kwargs):
        return command(options={name: kwargs.pop(name) for name, _ in TRAIN_OPTIONS}, **kwargs)

    run.__signature__ = inspect.Signature(own + added)
    return run


def _configure(options: dict):
    """(TrainConfig, target, positive) from the config file and the flags given (flags win)."""
    from scorecard.trainer.options.config import TrainConfig, load_toml, merge

    flags = dict(options)
    config_path = flags.pop("config")
    flags["coef_set"] = _numbers(flags["coef_set"], "--coef-set")
    flags["signs"] = _per_column(flags.pop("sign"), "--sign", form="COL=+ or COL=-")
    flags["coefficients"] = _per_column(flags["coefficients"], "--coefficients")
    flags["c0_by_input"] = _per_column(flags.pop("c0_for"), "--c0-for", lambda v: _number(v, "--c0-for"))
    flags["cuts"] = _per_column(flags["cuts"], "--cuts", lambda v: list(_numbers(v, "--cuts")))
    flags["intercept_set"] = _numbers(flags["intercept_set"], "--intercept-set")
    merged = merge(load_toml(config_path) if config_path else {}, flags)
    target, positive = merged.pop("target", None), merged.pop("positive", None)
    if target is None:
        raise UsageError("missing option '--target' (the outcome column), on the command line or in --config")
    return TrainConfig(**merged), target, positive


@app.command()
@with_train_options
def train(data: Data, output: Annotated[str, typer.Option("-o", "--output", help="Where to write MODEL.json.")],
          options: dict) -> None:
    """Train a scoring system on DATA and write the model file."""
    from scorecard.live import LiveProgress
    from scorecard.runtime import dumps

    cfg, target_name, positive_value = _configure(options)
    deadline = _deadline(cfg)
    labeled = _load_data(data, target_name, positive_value, cfg.missing)
    live = LiveProgress()
    try:
        fitted = _train(labeled, cfg, live, deadline)
    finally:
        live.close()
    write_atomic(output, dumps(fitted))
    _say(summary(fitted, output))


def summary(model, output: str) -> str:
    """``model: slim, 2 terms | status optimal, gap 0.0% | train error 3.2% | 1.4s -> out.json``."""
    t = model.training
    parts = [f"model: {t.params.get('model', model.kind) if t else model.kind}, {len(model.terms)} terms"]
    if t is not None:
        parts += [f"status {t.status}, gap {100 * t.gap:.1f}%", f"train error {100 * t.train_error:.1f}%",
                  f"{t.seconds:.1f}s"]
    return " | ".join(parts) + f" -> {output}"


# ---------------------------------------------------------------------------- show / predict


@app.command()
def show(model: ModelPath) -> None:
    """Print the scorecard as text, and how it was trained."""
    from scorecard.exporters.text import render_text
    from scorecard.runtime import load

    print(render_text(load(model)), end="")


@app.command()
def predict(model: ModelPath, data: Data,
            output: Annotated[str, typer.Option("-o", "--output", help="Where to write the scored CSV.")]) -> None:
    """Score DATA: its rows plus 'score' and 'prediction' columns, and 'probability' when the
    model has a score-to-risk map."""
    from scorecard.runtime import load, score_csv

    fitted = load(model)
    with atomic_output(output) as out:
        with _csv_text(data) as infile:
            result = score_csv(fitted, infile, out, source=data)
    if result.unscored:
        _say(f"{result.unscored} of {result.rows} rows have no score (missing values)")


def _csv_text(path: str):
    """The data as CSV text: the file itself, or a Parquet file rendered as CSV."""
    from scorecard.trainer.data.prepare import PARQUET_SUFFIXES, read_table

    if path.lower().endswith(PARQUET_SUFFIXES):
        frame = read_table(path)
        return io.StringIO(frame.to_csv(index=False, lineterminator="\n"))
    return open(path, newline="", encoding="utf-8-sig")  # as training reads it: a BOM is not part of a name


# ---------------------------------------------------------------------------- export / verify


@app.command()
def export(model: ModelPath,
           format: Annotated[str, typer.Option("--format", help="html, latex, python, sql, onnx or text.")],
           output: Annotated[str, typer.Option("-o", "--output", help="Where to write the file.")],
           dialect: Annotated[Optional[str], typer.Option("--dialect", help="sql: sqlite, duckdb, postgres, ansi.")] = None,
           table: Annotated[Optional[str], typer.Option("--table", help="sql: the table to read (default input).")] = None,
           ) -> None:
    """Write the model as one self-contained file in another format."""
    from scorecard.exporters.registry import ExportError, get
    from scorecard.runtime import load

    fitted = load(model)
    exporter = get(format)
    options = {name: value for name, value in (("dialect", dialect), ("table", table)) if value is not None}
    accepted = inspect.signature(exporter.render).parameters
    takes_any = any(p.kind is p.VAR_KEYWORD for p in accepted.values())
    for name in options:
        if name not in accepted and not takes_any:
            raise ExportError(f"--{name} does not apply to --format {format}")
    write_atomic(output, exporter.render(fitted, **options))


@app.command()
def verify(model: ModelPath,
           data: Annotated[Optional[str], typer.Option("--data", help="Also compare on this CSV.")] = None) -> None:
    """Check that every export format reproduces the runtime's scores (exit 1 if one differs)."""
    from scorecard.exporters.verify import verify_all
    from scorecard.runtime import load

    checks = verify_all(load(model), data=data)
    for check in checks:
        print(check.line())
    if any(check.ok is False for check in checks):  # ok is None for a check skipped on this machine
        raise typer.Exit(EXIT_DISAGREE)


# ---------------------------------------------------------------------------- cv


@app.command()
@with_train_options
def cv(data: Data, options: dict,
       folds: Annotated[int, typer.Option("--folds", help="Number of folds K.")] = 5,
       c0_grid: Annotated[Optional[str], typer.Option("--c0-grid", help="C0 values to compare, e.g. 0.001,0.01,0.1.")] = None,
       output: Annotated[Optional[str], typer.Option("-o", "--output", help="Also write the table as CSV.")] = None,
       plot: Annotated[Optional[str], typer.Option("--plot", help="Draw error against model size as SVG.")] = None,
       ) -> None:
    """Stratified K-fold cross-validation: train/test error, size, time, status and gap per fold."""
    from scorecard import crossval
    from scorecard.live import LiveProgress
    from scorecard.runtime.errors import InfeasibleError
    from scorecard.svgplot import error_vs_size
    from scorecard.trainer.train import train as fit

    cfg, target_name, positive_value = _configure(options)
    deadline = _deadline(cfg)
    grid = _numbers(c0_grid, "--c0-grid") or (cfg.c0,)
    for value in grid:
        cfg.with_options(c0=value)  # refuse a bad grid value before any solving
    labeled = _load_data(data, target_name, positive_value, cfg.missing)
    crossval.stratified_folds(labeled.y, folds, cfg.seed)

    widths = (8, 5, 12, 11, 5, 8, 12, 8)
    print(" ".join(f"{name:>{w}}" for name, w in zip(crossval.COLUMNS, widths)))
    live = LiveProgress()

    def show_row(row) -> None:
        live.close()
        print(" ".join(f"{crossval.cell(getattr(row, name)):>{w}}" for name, w in zip(crossval.COLUMNS, widths)),
              flush=True)

    try:
        results = crossval.run(labeled, cfg, folds, grid, fit, InfeasibleError, on_result=show_row, progress=live,
                               deadline=deadline)
    finally:
        live.close()
    totals = [r for r in results if r.fold == "all" and r.size is not None]
    if not totals:
        raise Infeasible("no fold found a model within the constraints")
    if output:
        with atomic_output(output) as fh:
            fh.write(",".join(crossval.COLUMNS) + "\n")
            for row in results:
                fh.write(",".join(crossval.cell(getattr(row, name)) for name in crossval.COLUMNS) + "\n")
    if plot:
        series = {kind: [(r.size, getattr(r, f"{kind}_error"), f"C0 = {r.c0:g}") for r in totals]
                  for kind in ("test", "train")}
        write_atomic(plot, error_vs_size(series, f"{os.path.basename(data)}: {folds}-fold cross-validation"))
