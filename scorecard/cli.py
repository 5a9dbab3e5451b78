"""The ``scorecard`` command line (typer): parses, wires the packages together, maps errors.

Every failure a user can cause ends in one line on standard error (``error: ...``) and exit
code 2, no traceback; ``verify`` disagreement is 1 and an infeasible training problem is 3
(docs/contract.md, "Exit codes"). Output files are written all or nothing.
"""
from __future__ import annotations

import functools
import inspect
import os
import sys
from typing import Annotated, Optional, Tuple

# Before numpy loads: its OpenBLAS runs each matrix product on a thread per core, and the
# trainer's products are many and small; on busy cores those threads wait on each other (the
# logistic cards' cross-validation on pima: 12.4 s wall with them, 4.7 s with one, load 5).
# One thread unless the user says otherwise; the solvers' threads are --threads.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import typer  # noqa: E402 (after the BLAS setting, as the rest)

try:  # typer >= 0.26 carries its own click
    from typer._click import exceptions as click_errors
except ImportError:  # older typer runs on the click package
    from click import exceptions as click_errors

from scorecard.runtime.errors import ExportError, InfeasibleError, Interrupted, ScorecardError, UsageError
from scorecard.runtime.files import atomic_output, check_output, write_atomic

EXIT_DISAGREE, EXIT_USAGE = 1, 2  # the other exit codes come with the error classes (runtime/errors.py)
EXIT_INTERRUPTED = Interrupted.exit_code  # Ctrl-C, as a shell reports SIGINT (128 + 2)


class _App(typer.Typer):
    """The typer app, run through :func:`main` so every error becomes one line and an exit code."""

    def __call__(self, *args, **kwargs):
        sys.exit(main())


app = _App(name="scorecard", add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False,
           help="Train provably optimal integer scoring systems (SLIM) and export them anywhere.")


def _print_version(value: Optional[bool]) -> None:
    if value:
        from scorecard import __version__

        print(f"scorecard {__version__}")
        raise typer.Exit(0)


@app.callback()
def _options(version: Annotated[Optional[bool], typer.Option(
        "--version", callback=_print_version, is_eager=True, help="Print the version and exit.")] = None) -> None:
    """Train provably optimal integer scoring systems (SLIM) and export them anywhere."""


def main(argv: list[str] | None = None) -> int:
    """Run the command line on ``argv`` (default: ``sys.argv[1:]``) and return the exit code."""
    command = typer.main.get_command(app)
    try:
        code = command.main(args=argv, prog_name="scorecard", standalone_mode=False)
    except click_errors.NoArgsIsHelpError:
        return EXIT_USAGE  # typer has printed the help
    except click_errors.ClickException as exc:
        return _fail(exc.format_message())
    except ScorecardError as exc:  # every error a user can cause; the class says the exit code
        return _fail(str(exc), exc.exit_code)
    except UnicodeDecodeError as exc:
        return _fail(f"not UTF-8 text ({exc.reason} at byte {exc.start})")
    except BrokenPipeError:  # `scorecard predict M D | head`: the reader has gone, nothing to report
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # so exit's flush cannot fail again
        return 1
    except OSError as exc:
        where = f"{exc.filename}: " if exc.filename else ""
        return _fail(f"{where}{exc.strerror or exc}")
    if code == EXIT_INTERRUPTED:  # typer's answer to a Ctrl-C no command caught: say so
        return _fail("interrupted (Ctrl-C)", EXIT_INTERRUPTED)
    return code if isinstance(code, int) else 0


def _fail(message: str, code: int = EXIT_USAGE) -> int:
    print("error: " + " ".join(message.split()), file=sys.stderr)
    return code


def _say(message: str) -> None:
    print(message, file=sys.stderr)


def _check_paths(inputs: list[str | None], outputs: list[tuple[str, str | None]]) -> None:
    """Refuse (exit 2), before any work, an output that is one of the inputs or another
    output, or that cannot be written (a missing folder, a folder, a read-only file)."""
    given = [(option, path) for option, path in outputs if path is not None and path != "-"]
    for option, path in given:
        for source in inputs:
            if source is not None and _same_file(path, source):
                raise UsageError(f"{option} {path} is the input file {source}; writing it would destroy the input, "
                                 "so name another output file")
    for k, (option, path) in enumerate(given):
        for other_option, other in given[k + 1:]:
            if _same_file(path, other):
                raise UsageError(f"{option} and {other_option} name the same file {path}; name two different files")
    for option, path in given:
        check_output(path, option)


def _same_file(a: str, b: str) -> bool:
    """Whether writing ``a`` would overwrite the regular file ``b`` (devices and pipes never clash)."""
    try:
        import stat

        return os.path.samefile(a, b) and stat.S_ISREG(os.stat(a).st_mode)
    except OSError:  # one does not exist yet: the same path, through links, is still the same file
        return os.path.realpath(a) == os.path.realpath(b)


def _warn(message: str) -> None:
    """The command line's sink for the trainer's warnings (trainer/advice.py): one line each."""
    _say("warning: " + " ".join(message.split()))


# ---------------------------------------------------------------------------- train

Data = Annotated[str, typer.Argument(metavar="DATA", help="CSV file (or Parquet, or an Excel .xlsx workbook: its first sheet).", show_default=False)]
DaskAddress = Annotated[Optional[str], typer.Option(
    "--dask", metavar="ADDRESS", help="Read DATA on this Dask scheduler (tcp://host:8786) and compute there "
    "(extra 'dask'); the files must be readable by the workers.", show_default=False)]
ModelPath = Annotated[str, typer.Argument(metavar="MODEL.json", help="A model file written by 'scorecard train'.", show_default=False)]


def _literal(text: str) -> str:
    """``text`` shown as written by ``--help``: typer's rich help reads ``[meta]`` or
    ``[default: 5]`` as a style tag and drops it, unless its bracket is escaped."""
    rich = getattr(typer.core, "DEFAULT_MARKUP_MODE", None) in ("rich", "markdown")
    return text.replace("[", "\\[") if rich else text


def _train_option(option) -> object:
    """The typer declaration of one training option of the spec (trainer/options/spec.py).

    Every flag defaults to None, so that a ``--config`` file can be merged under the flags
    given; ``--help`` shows the spec's default instead."""
    shown = option.shown_default
    text = option.help if shown is None else f"{option.help} [default: {shown}]"
    return Annotated[Optional[option.cli_type], typer.Option(*option.flags, help=_literal(text), show_default=False)]


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


def _load_data(path: str, target: str, positive, cfg):
    from scorecard.trainer.data.columnar import release_memory
    from scorecard.trainer.data.families import data_notes
    from scorecard.trainer.data.prepare import prepare, read_table

    data = prepare(read_table(path), target, positive, cfg.missing, source=path)
    release_memory()  # the file's columns are dropped: training gets their memory
    for note in data_notes(data, cfg):
        _say(f"note: {note}")
    if data.dropped_rows:
        _say(f"note: dropped {data.dropped_rows} rows with missing values ({len(data.y)} left)")
    for name, value in data.imputed.items():
        _say(f"note: column {name!r}: {data.missing_counts[name]} missing values imputed as {value!r}")
    return data


def _spec_options():
    from scorecard.trainer.options import spec

    return spec.cli_options()


def _deadline(config):
    """``--time-limit`` from the start of the process: start-up, reading and writing count
    (the time to write the output and exit is kept back)."""
    from scorecard.trainer.solvers.options import EXIT_SECONDS, Deadline, process_start

    return Deadline.after(config.time_limit, start=process_start()).earlier(min(EXIT_SECONDS, 0.05 * config.time_limit))



TRAIN_OPTIONS = tuple((option.cli_name, _train_option(option)) for option in _spec_options())


def with_train_options(command):
    """Give ``command`` every training option of the spec (typer reads the signature); it
    receives them as one dict, ``options``, so ``train`` and ``cv`` share one list of flags."""
    own = [p for p in inspect.signature(command, eval_str=True).parameters.values() if p.name != "options"]
    added = [inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=None, annotation=kind)
             for name, kind in TRAIN_OPTIONS]

    @functools.wraps(command)
    def run(**kwargs):
        return command(options={name: kwargs.pop(name) for name, _ in TRAIN_OPTIONS}, **kwargs)

    run.__signature__ = inspect.Signature(own + added)
    return run


def _reader(kind: str, flag: str):
    """How a repeatable COL=VALUE flag reads VALUE (the spec's ``cli_read``)."""
    if kind == "number":
        return lambda text: _number(text, flag)
    if kind == "numbers":
        return lambda text: list(_numbers(text, flag))
    return lambda text: text


def _configure(options: dict):
    """(TrainConfig, target, positive) from the config file and the flags given (flags win).

    ``options`` holds the flags by CLI name (``sign``, ``c0_for``); each becomes its spec
    option's value, list-like flags parsed as the spec's ``cli_form`` says."""
    from scorecard.trainer.options.config import TrainConfig, load_toml, merge

    flags = {}
    for option in _spec_options():
        value = options[option.cli_name]
        if option.cli_form == "numbers":
            value = _numbers(value, option.flag)
        elif option.cli_form == "number_or_auto" and value is not None:
            value = value.strip() if value.strip() == "auto" else _number(value, option.flag)
        elif option.cli_form == "per_column":
            value = _per_column(value, option.flag, _reader(option.cli_read, option.flag), form=option.metavar)
        flags[option.name] = value
    config_path = flags.pop("config")
    merged = merge(load_toml(config_path) if config_path else {}, flags)
    target, positive = merged.pop("target", None), merged.pop("positive", None)
    if target is None:
        raise UsageError("missing option '--target' (the outcome column), on the command line or in --config")
    return TrainConfig(**merged), target, positive


MetaFile = Annotated[Optional[str], typer.Option("--meta", metavar="FILE.toml", help=_literal(
    "The model's title, description, class names and per input label, unit, description "
    "(TOML: title, description, [classes], [inputs.COL]); also the [meta] table of --config."))]
Title = Annotated[Optional[str], typer.Option("--title", help="The card's title.")]
Description = Annotated[Optional[str], typer.Option("--description", help="Population and purpose, one sentence.")]
Labels = Annotated[Optional[list[str]], typer.Option("--label", metavar="COL=TEXT",
                                                     help="How COL reads on the card (repeat the flag).")]
Units = Annotated[Optional[list[str]], typer.Option("--unit", metavar="COL=UNIT", help="COL's unit (repeat the flag).")]


def _meta(meta_file: str | None, config: str | None, title, description, labels, units) -> dict:
    """The metadata given to ``train`` or ``meta``: [meta] of --config, then --meta, then flags."""
    from scorecard.metadata import combine, read_toml

    base = read_toml(config, "meta") if config else {}
    if meta_file:
        extra = read_toml(meta_file)
        base = {**base, **{k: v for k, v in extra.items() if k not in ("inputs", "classes")},
                "classes": {**base.get("classes", {}), **extra.get("classes", {})},
                "inputs": {name: {**base.get("inputs", {}).get(name, {}), **info}
                           for name, info in {**base.get("inputs", {}), **extra.get("inputs", {})}.items()}}
    return combine(base, title, description, _per_column(labels, "--label", form="COL=TEXT"),
                   _per_column(units, "--unit", form="COL=UNIT"))


@app.command()
@with_train_options
def train(data: Data, output: Annotated[str, typer.Option("-o", "--output", help="Where to write MODEL.json.")],
          options: dict, meta_file: MetaFile = None, title: Title = None, description: Description = None,
          label: Labels = None, unit: Units = None, dask: DaskAddress = None) -> None:
    """Train a scoring system on DATA and write the model file.

    Ctrl-C during the search writes the best model found so far (status interrupted) and
    exits 130."""
    from scorecard.live import LiveProgress
    from scorecard.metadata import check_inputs
    from scorecard.trainer.solvers.progress import announce
    from scorecard.trainer.stream import plan, train_streamed
    from scorecard.trainer.train import train as fit

    _check_paths([data, options.get("config"), meta_file], [("-o", output)])
    cfg, target_name, positive_value = _configure(options)
    meta = _meta(meta_file, options.get("config"), title, description, label, unit)
    deadline = _deadline(cfg)
    live = None
    try:
        if dask is not None:  # the rows stay on the cluster (trainer/cluster.py)
            from scorecard.trainer.cluster import train_on_cluster

            live = LiveProgress(verbose=cfg.verbose)
            fitted = train_on_cluster(dask, data, target_name, positive_value, cfg, live, deadline=deadline,
                                      warn=_warn, notes=_note)
        elif (reading := plan(data, cfg)).streamed:  # a folder, or over --memory-limit (trainer/stream.py)
            live = LiveProgress(verbose=cfg.verbose)
            fitted = train_streamed(data, target_name, positive_value, cfg, reading, live, deadline=deadline,
                                    warn=_warn, notes=_note)
        else:
            live = LiveProgress(verbose=cfg.verbose)
            announce(live, f"reading {data}")
            labeled = _load_data(data, target_name, positive_value, cfg)
            check_inputs(meta.get("inputs") or {}, {inp.name for inp in labeled.inputs}, "--meta/--label/--unit")
            fitted = fit(labeled, cfg, progress=live, deadline=deadline, warn=_warn)
    finally:
        if live is not None:
            live.close()
    _finish_train(fitted, output, meta)


def _note(message: str) -> None:
    _say(f"note: {message}")


def _finish_train(fitted, output: str, meta: dict | None = None) -> None:
    """Apply the metadata (``--meta``, ``--title``, ``--label``, ``--unit``), write the model
    file, print the summary line, and exit 130 after a Ctrl-C."""
    from scorecard.metadata import apply
    from scorecard.runtime import dumps

    fitted = apply(fitted, meta or {}, "--meta/--label/--unit")
    write_atomic(output, dumps(fitted))
    _say(summary(fitted, output))
    if fitted.training is not None and fitted.training.status == "interrupted":
        raise Interrupted(f"interrupted: the best model found before Ctrl-C is written to {output} "
                          "(status interrupted)")


def summary(model, output: str) -> str:
    """``model: slim, 2 terms, C0 = 0.0039 (5-fold CV) | proven optimal | train error 3.2% | 1.4s -> out.json``."""
    from scorecard.exporters.layout import result_text

    t = model.training
    n = len(model.terms)
    head = f"model: {t.params.get('model', model.kind) if t else model.kind}, {n} term{'' if n == 1 else 's'}"
    s = t.selection if t is not None else None
    if s:
        cv = f"{s['folds']}-fold CV" + (", by the logistic loss of its risks" if s.get("measure") == "log-loss" else "")
        head += {"logistic": f", logistic-loss card of {s.get('items')} items ({cv})",
                 "empty": f", the empty card ({cv}: no card beat the majority class)"}.get(
            s.get("loss"), f", C0 = {s.get('chosen', 0):.3g} ({cv})")
    parts = [head]
    if t is not None:
        parts += [result_text(t), f"train error {100 * t.train_error:.1f}%", f"{t.seconds:.1f}s"]
    return " | ".join(parts) + f" -> {output}"


# ---------------------------------------------------------------------------- show / predict


@app.command()
def meta(model: ModelPath, output: Annotated[Optional[str], typer.Option(
             "-o", "--output", help="Where to write the model (default: MODEL.json itself).")] = None,
         meta_file: MetaFile = None, title: Title = None, description: Description = None,
         label: Labels = None, unit: Units = None) -> None:
    """Add or change a model's title, description, class names, labels and units (no retraining)."""
    from scorecard.metadata import apply
    from scorecard.runtime import dumps, load

    target = output or model
    _check_paths([meta_file], [("-o", target)])
    fitted = apply(load(model), _meta(meta_file, None, title, description, label, unit), "--meta/--label/--unit")
    write_atomic(target, dumps(fitted))


@app.command()
def show(model: ModelPath) -> None:
    """Print the scorecard as text, and how it was trained."""
    from scorecard.exporters.text import render_text
    from scorecard.runtime import load

    print(render_text(load(model), defaults=_training_defaults()), end="")


def _training_defaults() -> dict:
    """Every training option's default as the model file records it (``training.params``)."""
    from scorecard.trainer.options.config import TrainConfig

    return TrainConfig().to_params()


@app.command()
def predict(model: ModelPath, data: Data,
            output: Annotated[Optional[str], typer.Option(
                "-o", "--output", help="Where to write the scored CSV (default, or '-': standard output).")] = None,
            explain: Annotated[Optional[int], typer.Option(
                "--explain", metavar="K", help="Add reason_1..reason_K and points_1..points_K: the K conditions "
                "that added the most points to each row (ties in card order).")] = None,
            dask: DaskAddress = None) -> None:
    """Score DATA: its rows plus 'score', 'prediction' (and 'probability') columns.

    'probability' is added when the model has a score-to-risk map. A file given with -o is
    written all or nothing; standard output gets the rows as they are scored.
    """
    from scorecard.runtime import load
    from scorecard.runtime.explain import check_k
    from scorecard.vectorised import score_file  # the runtime's output, computed in batches of columns

    reasons = 0 if explain is None else check_k(explain)
    _check_paths([model, data], [("-o", output)])
    fitted = load(model)
    if dask is not None:  # each partition scored where it lives (trainer/cluster.py), written in order
        from scorecard.trainer.cluster import score_on_cluster

        if output is None or output == "-":
            rows, unscored = score_on_cluster(dask, fitted, data, sys.stdout, explain=reasons)
            sys.stdout.flush()
        else:
            with atomic_output(output) as out:
                rows, unscored = score_on_cluster(dask, fitted, data, out, explain=reasons)
        if unscored:
            _say(f"{unscored} of {rows} rows have no score (missing values)")
        return
    if output is None or output == "-":
        result = score_file(fitted, data, sys.stdout, explain=reasons)
        sys.stdout.flush()
    else:
        with atomic_output(output) as out:
            result = score_file(fitted, data, out, explain=reasons)
    if result.unscored:
        _say(f"{result.unscored} of {result.rows} rows have no score (missing values)")


# ---------------------------------------------------------------------------- export / verify


@app.command()
def export(model: ModelPath,
           format: Annotated[str, typer.Option("--format", help="html, latex, python, sql, onnx, pmml or text.")],
           output: Annotated[str, typer.Option("-o", "--output", help="Where to write the file.")],
           dialect: Annotated[Optional[str], typer.Option("--dialect", help="sql: sqlite, duckdb, postgres, mysql (MariaDB), clickhouse, spark (Spark SQL), ansi; written through sqlglot: tsql, oracle, snowflake, bigquery.")] = None,
           table: Annotated[Optional[str], typer.Option(
               "--table", metavar="PATH", help="sql: the table to read (default input), a dotted path "
               "db.schema.table, each part quoted for the dialect; a part holding a dot or a double quote goes "
               'between double quotes, the quote doubled: \'"my.db".vitals\'.')] = None,
           keep: Annotated[Optional[str], typer.Option(
               "--keep", metavar="COL,...", help="sql: the table's columns the query returns before score (default: "
               "all); a name holding a comma goes between double quotes. Only the syntax is checked here: the "
               "engine says when the table has no such column.")] = None,
           as_: Annotated[Optional[Tuple[str, str]], typer.Option(
               "--as", metavar="view NAME", help="sql: write CREATE VIEW NAME AS the query (NAME a dotted path "
               "like --table).")] = None,
           statement: Annotated[bool, typer.Option(
               "--statement", help="sql: end the text with ';' (without it the query pastes into a CTE, a "
               "subquery or a view as is).")] = False,
           onnx_input: Annotated[Optional[str], typer.Option(
               "--onnx-input", help="onnx: columns (one named input per column, the default) or matrix (the numeric "
                                    "inputs in one double [N, k] input, in the order of the metadata's matrix_columns; "
                                    "text inputs stay named).")] = None,
           explain: Annotated[Optional[int], typer.Option(
               "--explain", metavar="K", help="sql, onnx: also return reason_1..reason_K and points_1..points_K "
               "(the python export always has explain(row, k)).")] = None,
           ) -> None:
    """Write the model as one self-contained file in another format."""
    from scorecard.exporters.registry import get
    from scorecard.runtime import load
    from scorecard.runtime.explain import check_k

    if explain is not None:
        check_k(explain)
    _check_paths([model], [("-o", output)])
    fitted = load(model)
    exporter = get(format)
    if as_ is not None and as_[0] != "view":
        raise ExportError(f"--as {as_[0]!r}: write --as view NAME")
    flags = {"dialect": "--dialect", "table": "--table", "keep": "--keep", "view": "--as view", "statement": "--statement",
             "onnx_input": "--onnx-input", "explain": "--explain"}
    given = {"dialect": dialect, "table": table, "keep": keep, "view": as_ and as_[1], "statement": statement or None,
             "onnx_input": onnx_input, "explain": explain}
    options = {name: value for name, value in given.items() if value is not None}
    accepted = inspect.signature(exporter.render).parameters
    takes_any = any(p.kind is p.VAR_KEYWORD for p in accepted.values())
    for name in options:
        if name not in accepted and not takes_any:
            raise ExportError(f"{flags[name]} does not apply to --format {format}")
    if exporter.name == "text":  # as `scorecard show` prints it: the options that differ from the defaults
        options["defaults"] = _training_defaults()
    write_atomic(output, exporter.render(fitted, **options))


@app.command()
def verify(model: ModelPath,
           data: Annotated[Optional[str], typer.Option("--data", help="Also compare on this CSV (or Parquet, or .xlsx).")] = None) -> None:
    """Check that every export format reproduces the runtime's scores (exit 1 if one differs)."""
    from scorecard.exporters.verify import verify_all
    from scorecard.runtime import load

    fitted = load(model)
    rows = None
    if data is not None:  # read as predict reads it: one reader for every command
        from scorecard.trainer.data.columnar import text_batches

        _, batches, _ = text_batches(data, data)
        rows = [row for batch in batches for row in batch.to_pylist()]
    checks = verify_all(fitted, data=data, rows=rows)
    width = max(len(check.engine) for check in checks)
    for check in checks:
        print(check.line(width))
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
    """Stratified K-fold cross-validation: train/test error, size, time, status and gap per fold.

    Under --c0 auto without --c0-grid (the default) the candidates are those train's --c0 auto
    compares (trainer/select.py: the C0 grid and, for plain SLIM, the logistic-loss cards), and
    the recommendation is the card it would choose on these folds."""

    from scorecard import crossval
    from scorecard.exporters.text import selection_lines
    from scorecard.live import LiveProgress
    from scorecard.svgplot import error_vs_size
    from scorecard.trainer.select import FOLD_WORK, choose_c0, recommendation
    from scorecard.trainer.train import fold_fit

    _check_paths([data, options.get("config")], [("-o", output), ("--plot", plot)])
    cfg, target_name, positive_value = _configure(options)
    deadline = _deadline(cfg)
    grid = _numbers(c0_grid, "--c0-grid") or (() if cfg.c0 == "auto" else (cfg.c0,))
    for value in grid:
        cfg.with_options(c0=value)  # refuse a bad grid value before any solving
    labeled = _load_data(data, target_name, positive_value, cfg)
    crossval.stratified_folds(labeled.y, folds, cfg.seed)

    widths = (8, 5, 12, 11, 5, 8, 12, 8)
    if cfg.w_pos != 0.5:  # not the share of rows wrong that show prints as the train error
        print(f"errors weighted by class (--w-pos {cfg.w_pos:g}): a positive row weighs {cfg.w_pos:g}, "
              f"a negative one {1 - cfg.w_pos:g}")
    print(" ".join(f"{name:>{w}}" for name, w in zip(crossval.COLUMNS, widths)))
    live = LiveProgress(verbose=cfg.verbose)

    def show_row(row) -> None:
        live.close()
        print(" ".join(f"{crossval.cell(getattr(row, name)):>{w}}" for name, w in zip(crossval.COLUMNS, widths)),
              flush=True)

    selection = None
    try:
        if grid:  # each fit as a fold of --c0 auto fits: a share of the work, no exact backend
            fold_cfg = cfg if cfg.work_limit is None else cfg.with_options(work_limit=FOLD_WORK * cfg.work_limit)
            results = crossval.run(labeled, fold_cfg, folds, grid, fold_fit, InfeasibleError, on_result=show_row,
                                   progress=live, deadline=deadline)
        else:  # --c0 auto: what train's --c0 auto compares, on these folds
            selection = choose_c0(labeled, cfg, deadline, live, fit=fold_fit, folds=folds, on_result=show_row)
            results = list(selection.results)
    finally:
        live.close()
    totals = [r for r in results if r.fold == "all" and r.size is not None]
    points = crossval.grid_points(results) if selection is None else list(selection.points)
    if not points and not totals:
        raise InfeasibleError("no fold found a model within the constraints")
    if output:
        with atomic_output(output) as fh:
            fh.write(",".join(crossval.COLUMNS) + "\n")
            for row in results:
                fh.write(",".join(crossval.cell(getattr(row, name)) for name in crossval.COLUMNS) + "\n")
    if selection is not None:
        print()
        print("\n".join(selection_lines(selection.record())))
        print(f"recommended: {recommendation(selection)} (train with --c0 auto, the default, on this file to get it)")
    else:
        best = crossval.one_standard_error(points, cfg.max_items)
        if best is not None:
            weighted = "" if cfg.w_pos == 0.5 else f", weighted by class with --w-pos {cfg.w_pos:g}"
            print(f"recommended: C0 = {best.c0:g}, the smallest model (mean size {best.size:g}) whose mean test "
                  f"error ({100 * best.test_error:.1f}%{weighted}) is within one standard error of the best among "
                  f"cards of at most {cfg.max_items} items when there are any (train with --c0 {best.c0:g})")
    if plot:
        series = {kind: [(r.size, getattr(r, f"{kind}_error"), f"C0 = {r.c0:g}") for r in totals]
                  for kind in ("test", "train")}
        logistic = [(p.size, p.test_error, f"logistic {p.items}") for p in points if p.loss != crossval.ZERO_ONE]
        if logistic:
            series["logistic, test"] = logistic  # the logistic-loss cards (labelled in their tooltips)
        write_atomic(plot, error_vs_size(series, f"{os.path.basename(data)}: {folds}-fold cross-validation"))


# ---------------------------------------------------------------------------- report / monitor


class _Where:
    """Where a data row is, named only when a message needs it (finding a CSV line costs a scan)."""

    def __init__(self, locate, k: int):
        self.locate, self.k = locate, k

    def __str__(self) -> str:
        return self.locate(self.k)


By = Annotated[Optional[list[str]], typer.Option(
    "--by", metavar="COL", help="Break the numbers down by the groups of COL (repeat for more columns; with "
    "two or more, their combinations too).")]


def _sample(model, path: str, outcome: str, columns: list[str] | tuple = ()):
    """The rows of ``path`` scored by the runtime, read as ``predict`` reads them (and the
    cells of ``columns``, those it has)."""
    from scorecard.runtime.validation import read_sample
    from scorecard.trainer.data.columnar import text_batches

    header, batches, locate = text_batches(path, path)

    def records():
        k = 0
        for batch in batches:
            for cells in zip(*(column.to_pylist() for column in batch.columns)):
                yield _Where(locate, k), list(cells)
                k += 1

    return read_sample(model, header, records(), path, outcome, columns)


@app.command()
def report(model: ModelPath,
           data: Annotated[str, typer.Option("--data", help="CSV (or Parquet, or .xlsx) with the inputs and the outcome.")],
           output: Annotated[str, typer.Option("-o", "--output", help="Where to write the report page (HTML).")],
           by: By = None) -> None:
    """Write a validation report of MODEL on DATA: one printable page (TRIPOD's contents).

    Data summary, the card, discrimination (AUC with a 95% interval, ROC curve), calibration
    (observed vs predicted risk by score, slope and intercept), the confusion table at the
    threshold, the score distribution by class, the decision curve (net benefit), and how the
    model was trained; with --by, the numbers of each group on the sheets after it."""
    from scorecard.exporters.report import render_report
    from scorecard.runtime import load
    from scorecard.runtime.validation import limit_columns, validate

    _check_paths([model, data], [("-o", output)])
    fitted = load(model)
    groups = by or []
    numbers = validate(fitted, _sample(fitted, data, "required", groups + limit_columns(fitted)), groups)
    write_atomic(output, render_report(fitted, numbers, os.path.basename(data)))


@app.command()
def recalibrate(model: ModelPath,
                data: Annotated[str, typer.Option(
                    "--data", help="The site's own rows (CSV, Parquet or .xlsx): the model's inputs and the outcome.")],
                output: Annotated[str, typer.Option("-o", "--output", help="Where to write the recalibrated model file.")],
                site: Annotated[Optional[str], typer.Option(
                    "--site", help="Where the rows come from, recorded in the model's history.")] = None) -> None:
    """Refit MODEL's risks on DATA's outcomes, keeping its points and threshold.

    The risk table is fitted again on DATA as training fits it (a monotone logistic fit of the
    outcome on the score, a 95% interval per score); the new model file records when, on which
    data and site, the fit's intercept and slope with their intervals, and the map it replaced
    (its history), so that 'report' on DATA shows the calibration before and after."""
    from scorecard.runtime import dumps, load
    from scorecard.trainer.recalibrate import recalibrated

    _check_paths([model, data], [("-o", output)])
    fitted = load(model)
    if site is not None and not site.strip():
        raise UsageError("--site: give the site a name, or leave the option out")
    refitted = recalibrated(fitted, _sample(fitted, data, "required"), data, site)
    write_atomic(output, dumps(refitted))
    entry = refitted.history[-1]
    fit = entry["fit"]

    def shown(i: dict | None) -> str:
        return "n/a" if i is None else f"{i['value']:.2f} (95% CI {i['low']:.2f} to {i['high']:.2f})"

    before = entry["before"]
    was = (f"; before, on these rows: calibration slope {shown(before['slope'])}, intercept {shown(before['intercept'])}"
           if before else "; the model had no risks before")
    _say(f"recalibrated on {entry['scored']} rows of {entry['data']}: risk = 1 / (1 + exp(-(a + b (score - T)))), "
         f"T = {fit['center']:g} (the threshold), a {shown(fit['intercept'])}, b {shown(fit['slope'])}{was} -> {output}")


@app.command()
def monitor(model: ModelPath,
            baseline: Annotated[str, typer.Option("--baseline", help="The data the model was validated on (CSV).")],
            current: Annotated[str, typer.Option("--current", help="The data it scores now (CSV).")],
            output: Annotated[Optional[str], typer.Option(
                "-o", "--output", help="Also write the drift page (HTML) with the same numbers and plots.")] = None,
            by: By = None) -> None:
    """Compare CURRENT with BASELINE: population stability of the score and of each input,
    missing values, and the outcome rate and calibration when CURRENT has the outcome.

    Prints one line per item and exits 0 whatever the drift (a shift is a finding, not an error)."""
    from scorecard.exporters.report import drift_lines, render_drift
    from scorecard.runtime import load
    from scorecard.runtime.validation import drift

    _check_paths([model, baseline, current], [("-o", output)])
    fitted = load(model)
    groups = by or []
    numbers = drift(fitted, _sample(fitted, baseline, "optional", groups), _sample(fitted, current, "optional", groups),
                    groups)
    if output is not None:
        write_atomic(output, render_drift(fitted, numbers))
    for line in drift_lines(numbers):
        print(line)
