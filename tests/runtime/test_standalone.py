"""runtime/ works when the folder alone is copied into another project, standard library only."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from scorecard.runtime import Input, Model, Target, Term, dump
from testdata import ROOT

CHECK = """
import sys
import scorecard.runtime
outside = sorted({m.split('.')[0] for m in sys.modules} - set(sys.stdlib_module_names) - {'scorecard', '__main__'})
print(','.join(outside))
"""


def test_copied_runtime_runs_with_no_site_packages(tmp_path):
    project = tmp_path / "elsewhere"
    shutil.copytree(ROOT / "runtime", project / "scorecard" / "runtime",
                    ignore=shutil.ignore_patterns("__pycache__"))
    (project / "scorecard" / "__init__.py").write_text("")
    model = Model("linear", Target("y", 1), (Input("a", "numeric"), Input("c", "categorical")),
                  (Term("a", "linear", None, 2, "a"), Term("c", "==", "x", 3, "c is x")), -4)
    dump(model, str(project / "m.json"))
    (project / "d.csv").write_text("a,c\n1,x\n3,y\n,x\n", encoding="utf-8")
    # -S: no site-packages (so no numpy/pandas to lean on); -E: ignore PYTHONPATH.
    python = [sys.executable, "-E", "-S"]
    done = subprocess.run(python + ["-m", "scorecard.runtime", "m.json", "d.csv"], cwd=project,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "a,c,score,prediction\n1,x,5,1\n3,y,6,1\n,x,,\n"  # threshold 4
    assert "1 of 3 rows have no score" in done.stderr
    imported = subprocess.run(python + ["-c", CHECK], cwd=project, capture_output=True, text=True, check=True)
    assert imported.stdout.strip() == ""
    assert Path(project / "scorecard" / "runtime" / "__main__.py").exists()
