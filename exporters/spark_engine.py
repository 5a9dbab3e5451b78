"""Spark SQL for ``verify``: one pyspark session in local mode, in a child process, for a whole run.

A local Spark session starts a Java VM, which takes ten to forty seconds on a busy machine, so
the session is started once per process (``shared()``: the first ``verify`` starts it, later
ones reuse it, it stops when the process exits) and every query is sent to it. It runs in a
child process, as JPMML and chdb do: a Java VM inside the verifying process (JPype's, Spark's)
broke native code that ran after it there (CP-SAT crashed), and chdb's signal handlers crash a
Java VM.

The child (``CHILD``) reads one job per line on stdin, JSON: the table's columns (name and
kind: ``int``, ``float`` or ``text``), its rows, and the queries to run over it. It loads the
rows as the temporary view ``input`` with the columns typed BIGINT, DOUBLE and STRING (NULL,
NaN and blank texts kept as they are: JSON carries NaN) and answers one line: per query its
rows, or the first line of Spark's error. Its stdout is the answer channel only: anything
else written there (Spark's launcher, the Java VM) goes to stderr, which is kept in a
temporary file for the message when the child dies. ``local[1]`` (one thread), one shuffle
partition, no adaptive re-planning and no UI: the same plan every run, no port served. The
Java VM compiles with its quick compiler only (``TieredStopAtLevel=1``) and one garbage
collector thread: verify's work is mostly compiling many small queries, not long loops, and on
a loaded 2-core machine (load 8) the session started in 20 s instead of 50 s and 36 checks took
38 s instead of 128 s (the same script, one after the other).
"""
from __future__ import annotations

import atexit
import importlib.metadata
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field

CHILD = r"""
import json, os, sys
answers = os.fdopen(os.dup(1), "w", encoding="utf-8")
os.dup2(2, 1)  # the Java VM and Spark's launcher write to stdout: keep it for the answers
from pyspark.sql import SparkSession
from pyspark.sql.types import DoubleType, LongType, StringType, StructField, StructType

spark = (SparkSession.builder.master("local[1]").appName("scorecard-verify")
         .config("spark.ui.enabled", "false").config("spark.sql.shuffle.partitions", "1")
         .config("spark.driver.host", "127.0.0.1").config("spark.driver.bindAddress", "127.0.0.1")
         .config("spark.driver.memory", "1g").config("spark.sql.session.timeZone", "UTC")
         .config("spark.driver.extraJavaOptions", "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC")
         .config("spark.sql.adaptive.enabled", "false")
         .getOrCreate())
spark.sparkContext.setLogLevel("OFF")
TYPES = {"int": LongType(), "float": DoubleType(), "text": StringType()}


def first_line(exc):
    text = exc.java_exception.toString() if hasattr(exc, "java_exception") else str(exc)
    return next((line.strip() for line in text.splitlines() if line.strip()), type(exc).__name__)


print(json.dumps({"ready": True}), file=answers, flush=True)
for line in sys.stdin:
    job = json.loads(line)
    try:
        schema = StructType([StructField(name, TYPES[kind], True) for name, kind in job["columns"]])
        spark.createDataFrame(job["rows"], schema).createOrReplaceTempView("input")
        loaded = None
    except Exception as exc:  # the engine's error is the answer to every query
        loaded = f"loading the rows: {type(exc).__name__}: {first_line(exc)}"
    out = []
    for query in job["queries"]:
        try:
            if loaded is not None:
                raise RuntimeError(loaded)
            out.append({"rows": json.loads(json.dumps([list(row) for row in spark.sql(query).collect()]))})
        except Exception as exc:  # the engine's error is the answer
            out.append({"error": f"{type(exc).__name__}: {first_line(exc)}"})
    print(json.dumps(out), file=answers, flush=True)
spark.stop()
"""


def missing() -> str | None:
    """Why Spark cannot run here (pyspark or a Java runtime missing), or None."""
    if importlib.util.find_spec("pyspark") is None:
        return "pyspark is not installed (pip install 'scorecard[spark]')"
    if shutil.which("java") is None and not os.environ.get("JAVA_HOME"):
        return "no Java runtime (apt-get install openjdk-17-jre-headless)"
    return None


class SparkError(RuntimeError):
    """Spark could not start, or its child process died: the engine cannot run."""


@dataclass
class SparkChild:
    """A local Spark session in a child process, started at creation (the Java VM boots while
    the caller does other work); ``run`` waits for it the first time."""

    child: subprocess.Popen = field(init=False)
    log: object = field(init=False)  # the child's stderr, for the message when it dies
    ready: bool = field(init=False, default=False)

    def __post_init__(self) -> None:
        self.log = tempfile.TemporaryFile(mode="w+", encoding="utf-8", errors="replace")
        env = dict(os.environ, SPARK_LOCAL_IP="127.0.0.1", PYSPARK_PYTHON=sys.executable)
        self.child = subprocess.Popen([sys.executable, "-c", CHILD], stdin=subprocess.PIPE,
                                      stdout=subprocess.PIPE, stderr=self.log, text=True, encoding="utf-8", env=env)

    def _answer(self) -> object:
        line = self.child.stdout.readline()  # type: ignore[union-attr]
        if not line:
            self.child.wait()
            self.log.seek(0)
            lines = [ln for ln in self.log.read().splitlines() if ln.strip() and not ln.startswith("\tat ")]
            raise SparkError(f"Spark stopped (exit code {self.child.returncode}): "
                             f"{lines[-1].strip() if lines else 'no message'}")
        return json.loads(line)

    def start(self) -> None:
        """Wait until the session is up (SparkError if it could not start)."""
        if not self.ready:
            self.ready = bool(self._answer())

    def run(self, columns: list[tuple[str, str]], rows: list[tuple], queries: list[str]) -> list[list[list] | str]:
        """Each query's rows over the table ``input`` of ``columns`` (name, kind) and ``rows``,
        or Spark's one-line error (a string) for a query it refused or failed."""
        self.start()
        try:
            self.child.stdin.write(json.dumps({"columns": columns, "rows": rows, "queries": queries}) + "\n")  # type: ignore[union-attr]
            self.child.stdin.flush()  # type: ignore[union-attr]
        except BrokenPipeError:
            pass  # the child died: _answer says why
        return [answer.get("rows", answer.get("error")) for answer in self._answer()]  # type: ignore[union-attr]

    def close(self) -> None:
        """Stop the session: end of input, then wait for the child (it stops Spark on exit)."""
        if self.child.poll() is None:
            try:
                self.child.stdin.close()  # type: ignore[union-attr]
            except BrokenPipeError:
                pass
            self.child.wait()
        self.log.close()


_SHARED: list[SparkChild] = []


def shared() -> SparkChild:
    """This process's session, started on first use and stopped when the process exits (one
    Java VM for every ``verify`` of a run, or of a test session)."""
    if not _SHARED or _SHARED[0].child.poll() is not None:
        if _SHARED:
            _SHARED.pop().close()
        _SHARED.append(SparkChild())
        atexit.register(_SHARED[0].close)
    return _SHARED[0]


def engine_name() -> str:
    """How verify names the engine: ``spark (pyspark X.Y.Z)``."""
    return f"spark (pyspark {importlib.metadata.version('pyspark')})"
