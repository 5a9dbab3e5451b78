"""The public contract lives in the project's own docs (docs/contract.md), and nothing points
users at the old out-of-tree specification any more. Reads files only: no package import."""
from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CONTRACT = ROOT / "docs" / "contract.md"
COMMANDS = ("train", "show", "predict", "export", "verify", "cv", "report", "monitor")
OLD_SPEC = "SPEC" + ".md"  # split so this file does not mention it itself


def contract() -> str:
    assert CONTRACT.is_file(), "docs/contract.md is missing"
    return CONTRACT.read_text(encoding="utf-8")


def section(text: str, title: str) -> str:
    """The body of the heading called ``title`` (any level), up to the next heading of that level or higher."""
    match = re.search(rf"^(#+) {re.escape(title)}\s*$", text, flags=re.M)
    assert match, f"docs/contract.md has no section {title!r}"
    level = len(match.group(1))
    end = re.compile(rf"^#{{1,{level}}} ", flags=re.M).search(text, match.end())
    return text[match.end():end.start() if end else len(text)]


def tracked(*patterns: str) -> list[Path]:
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    out = subprocess.run(["git", "ls-files", "-z", "--", *patterns], cwd=ROOT, capture_output=True, check=True)
    return [ROOT / name for name in out.stdout.decode("utf-8").split("\0") if name]


def test_contract_documents_every_command():
    text = contract()
    for command in COMMANDS:
        assert f"scorecard {command}" in text, f"docs/contract.md does not show 'scorecard {command}'"
        section(text, command)


def test_contract_documents_every_exit_code():
    codes = section(contract(), "Exit codes")
    for code in range(4):
        assert re.search(rf"(?<![\w.]){code}(?!\w|\.\d)", codes), f"exit code {code} is not in 'Exit codes'"


def test_no_file_cites_the_old_spec():
    files = tracked("*.py", "*.md")
    assert files, "git ls-files found no .py or .md files"
    citing = [str(p.relative_to(ROOT)) for p in files
              if p.is_file() and OLD_SPEC in p.read_text(encoding="utf-8", errors="replace")]
    assert not citing, f"these files still mention {OLD_SPEC}: {', '.join(citing)}"


def test_cited_contract_sections_exist():
    """Every citation of a docs/contract.md section (its heading, in quotes) names a heading that exists."""
    text = contract()
    headings = set(re.findall(r"^#+ (.+?)\s*$", text, flags=re.M))
    cited = {}
    for path in tracked("*.py", "*.md"):
        if path.is_file():
            for title in re.findall(r'docs/contract\.md, "([^"]+)"', path.read_text(encoding="utf-8", errors="replace")):
                cited.setdefault(title, str(path.relative_to(ROOT)))
    missing = {title: where for title, where in cited.items() if title not in headings}
    assert not missing, f"cited sections missing from docs/contract.md: {missing}"
