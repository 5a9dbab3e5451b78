"""runtime/files.py: all-or-nothing writes that keep modes, write through devices and pipes,
name their temporary files recognisably and clean those of dead processes (issue 12: 1, 2, 22)."""
from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
import threading

import pytest
from scorecard.runtime import files
from scorecard.runtime.errors import UsageError
from scorecard.runtime.files import TMP_MARK, atomic_output, check_output, clean_stale, temp_name, write_atomic


def test_an_existing_files_mode_is_kept(tmp_path):
    out = tmp_path / "o.csv"
    out.write_text("old")
    out.chmod(0o600)
    write_atomic(str(out), "new")
    assert out.read_text() == "new"
    assert stat.S_IMODE(out.stat().st_mode) == 0o600


@pytest.mark.parametrize("exchange", [True, False], ids=["names exchanged", "os.replace"])
def test_an_existing_file_is_replaced_whole_and_the_old_one_removed(tmp_path, monkeypatch, exchange):
    """Over an existing output: on Linux the names are exchanged and the old file removed (ext4
    starts writing a file renamed over another out to disk before the rename returns); without
    renameat2, os.replace. Either way a reader that had the old file open keeps reading it whole,
    and only the new file is left."""
    if not exchange:
        monkeypatch.setattr(files, "_renameat2", lambda: None)
    elif not sys.platform.startswith("linux"):
        pytest.skip("renameat2 is Linux's")
    out = tmp_path / "scored.csv"
    out.write_text("old rows\n" * 1000)
    with open(out) as reader:
        write_atomic(str(out), "new rows\n")
        assert reader.read() == "old rows\n" * 1000
    assert out.read_text() == "new rows\n"
    assert [p.name for p in tmp_path.iterdir()] == ["scored.csv"]


def test_names_are_exchanged_in_one_step_on_linux(tmp_path):
    if not sys.platform.startswith("linux"):
        pytest.skip("renameat2 is Linux's")
    a, b = tmp_path / "a", tmp_path / "b"
    a.write_text("A")
    b.write_text("B")
    assert files._exchange(str(a), str(b))
    assert (a.read_text(), b.read_text()) == ("B", "A")
    assert not files._exchange(str(a), str(tmp_path / "missing"))  # nothing to exchange with: os.replace's case
    assert a.read_text() == "B" and not (tmp_path / "missing").exists()


def test_a_new_file_follows_the_umask(tmp_path):
    old = os.umask(0o027)
    try:
        write_atomic(str(tmp_path / "n.csv"), "x")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "n.csv").stat().st_mode) == 0o640


def test_a_symbolic_link_stays_a_link(tmp_path):
    real = tmp_path / "real.json"
    real.write_text("old")
    link = tmp_path / "link.json"
    link.symlink_to(real)
    write_atomic(str(link), "new")
    assert link.is_symlink() and real.read_text() == "new"


def test_a_named_pipe_is_written_through_not_replaced(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got = []
    reader = threading.Thread(target=lambda: got.append(open(fifo).read()))
    reader.start()
    write_atomic(str(fifo), "rows\n")
    reader.join(5)
    assert got == ["rows\n"]
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)


def test_a_failed_write_leaves_nothing(tmp_path):
    out = tmp_path / "o.csv"
    out.write_text("kept")
    with pytest.raises(RuntimeError):
        with atomic_output(str(out)) as fh:
            fh.write("partial")
            raise RuntimeError("boom")
    assert out.read_text() == "kept"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["o.csv"]


def test_temporary_files_are_named_recognisably(tmp_path):
    seen = []
    with atomic_output(str(tmp_path / "scored.csv")) as fh:
        seen = [p.name for p in tmp_path.iterdir()]
        fh.write("x")
    assert len(seen) == 1 and seen[0].startswith(".scored.csv" + TMP_MARK + f"{os.getpid()}-")


def _dead_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_stale_temporary_files_of_dead_processes_are_cleaned_by_the_next_write(tmp_path):
    stale = temp_name(str(tmp_path / "big.csv"), pid=_dead_pid())
    live = temp_name(str(tmp_path / "other.csv"))  # this process: still writing it
    for name in (stale, live):
        with open(name, "w") as fh:
            fh.write("partial")
    (tmp_path / "user.scorecard-tmp-1-ab").write_text("not ours: no leading dot")
    write_atomic(str(tmp_path / "m.json"), "{}")
    names = sorted(p.name for p in tmp_path.iterdir())
    assert os.path.basename(stale) not in names
    assert os.path.basename(live) in names and "user.scorecard-tmp-1-ab" in names
    assert clean_stale(str(tmp_path)) == []


@pytest.mark.parametrize("make, message", [
    (lambda p: p.mkdir(), "is a folder"),
    (lambda p: None, "no such folder"),
])
def test_check_output_names_the_users_path(tmp_path, make, message):
    target = tmp_path / "out"
    make(target)
    path = target if message == "is a folder" else target / "sub" / "m.json"
    with pytest.raises(UsageError, match=message) as caught:
        check_output(str(path))
    assert str(path) in str(caught.value) and TMP_MARK not in str(caught.value)


ROOT_ONLY = "needs root, unshare and mknod to make a private /dev (a private mount namespace)"


def _private_dev_available() -> bool:
    if os.geteuid() != 0 or not shutil.which("unshare"):
        return False
    probe = subprocess.run(["unshare", "-m", "sh", "-c",
                            "mount --make-rprivate / && mount -t tmpfs tmpfs /mnt && mknod /mnt/n c 1 3"],
                           capture_output=True)
    return probe.returncode == 0


@pytest.mark.skipif(not _private_dev_available(), reason=ROOT_ONLY)
@pytest.mark.parametrize("device", ["/dev/null", "/dev/stdout"])
def test_a_device_is_written_through_not_replaced_even_as_root(device):
    """Issue 12 item 1: as root, ``-o /dev/null`` once renamed a file over the device. Run in a
    private mount namespace with its own /dev, so the real one is never at risk."""
    script = f"""
set -e
mount --make-rprivate /
mount -t tmpfs tmpfs /dev
mknod -m 666 /dev/null c 1 3
mknod -m 666 /dev/urandom c 1 9
ln -s /proc/self/fd/1 /dev/stdout
{sys.executable} -c "from scorecard.runtime.files import write_atomic; write_atomic('{device}', 'secret rows')" > /tmp/harden-stdout-$$
stat -c '%F %a' /dev/null
cat /tmp/harden-stdout-$$; rm -f /tmp/harden-stdout-$$
ls -a /dev
"""
    run = subprocess.run(["unshare", "-m", "sh", "-c", script], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert lines[0] == "character special file 666"
    assert ("secret rows" in run.stdout) == (device == "/dev/stdout")
    assert TMP_MARK not in run.stdout  # no temporary file left in /dev
