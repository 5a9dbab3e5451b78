"""The CLI's helpers: live progress only on a terminal, stratified folds, the SVG plot, atomic files."""
from __future__ import annotations

import io
import os
import stat
import xml.etree.ElementTree as ET

import numpy as np
import pytest
from scorecard.runtime.errors import ConfigError
from scorecard.runtime.files import atomic_output, write_atomic
from scorecard.trainer.solvers.progress import Progress

from scorecard.crossval import stratified_folds
from scorecard.live import LiveProgress
from scorecard.svgplot import error_vs_size


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_live_progress_redraws_one_line_on_a_terminal_and_is_silent_in_a_pipe():
    event = Progress(elapsed=1.5, incumbent=0.0321, bound=0.029, gap=0.097, message="cbc")
    tty, pipe = Terminal(), io.StringIO()
    for stream in (tty, pipe):
        live = LiveProgress(stream, interval=0)
        live(event)
        live(event)
        live.close()
    assert pipe.getvalue() == ""
    text = tty.getvalue()
    assert text.count("\r") == 3 and "\n" not in text
    assert "best 0.0321" in text and "bound 0.029" in text and "gap 9.7%" in text and "1.5s" in text


def test_folds_are_stratified_disjoint_and_seeded():
    y = np.array([1] * 30 + [-1] * 70)
    folds = stratified_folds(y, 5, seed=3)
    assert sorted(np.concatenate(folds).tolist()) == list(range(100))
    assert all((y[f] == 1).sum() == 6 and len(f) == 20 for f in folds)
    assert all((a == b).all() for a, b in zip(folds, stratified_folds(y, 5, seed=3)))
    assert any((a != b).any() for a, b in zip(folds, stratified_folds(y, 5, seed=4)))


def test_more_folds_than_the_smaller_class_is_refused():
    with pytest.raises(ConfigError, match="--folds: 4 is not valid; use 2..3"):
        stratified_folds(np.array([1, 1, 1, -1, -1, -1, -1]), 4, seed=0)


def test_svg_plot_is_valid_with_one_line_per_series():
    svg = error_vs_size({"test": [(3, 0.05, "C0 = 0.01"), (1, 0.08, "C0 = 0.1")],
                         "train": [(3, 0.03, "C0 = 0.01"), (1, 0.07, "C0 = 0.1")]}, "a & b <plot>")
    root = ET.fromstring(svg)
    lines = [e for e in root.iter() if e.tag.endswith("polyline")]
    assert [e.get("data-name") for e in lines] == ["test", "train"]
    assert "a &amp; b &lt;plot&gt;" in svg


def test_atomic_output_gets_the_usual_mode_and_leaves_nothing_on_failure(tmp_path):
    umask = os.umask(0o022)
    try:
        write_atomic(str(tmp_path / "a.txt"), "hello")
        assert stat.S_IMODE(os.stat(tmp_path / "a.txt").st_mode) == 0o644
        with pytest.raises(RuntimeError):
            with atomic_output(str(tmp_path / "b.txt")) as fh:
                fh.write("half")
                raise RuntimeError("interrupted")
    finally:
        os.umask(umask)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.txt"]
