"""Guard rails on the import graph, read from the source with ``ast`` (nothing is imported).

- runtime/ is the leaf: the standard library and relative runtime modules only;
- exporters/ never imports the trainer;
- no import cycles, counting imports inside functions too (a function-level import that
  closes a cycle only hides it from the module loader, not from the design).

The folders map to packages as pyproject.toml's ``package-dir`` says.
"""
from __future__ import annotations

import ast
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE_DIRS = {  # pyproject.toml [tool.setuptools] package-dir
    "scorecard": "scorecard", "scorecard.runtime": "runtime", "scorecard.trainer": "trainer",
    "scorecard.exporters": "exporters", "scorecard.templates": "templates",
}
TOP = {"scorecard.runtime": "runtime", "scorecard.trainer": "trainer", "scorecard.exporters": "exporters",
       "scorecard.templates": "templates"}


@dataclass(frozen=True)
class Import:
    module: str  # the importing module
    line: int
    level: int  # 0 for an absolute import
    targets: tuple[str, ...]  # dotted names it may load (the module, and ``from M import name`` as M.name)

    def where(self) -> str:
        return f"{self.module} (line {self.line})"


def _modules() -> dict[str, Path]:
    """Dotted module name -> source file, for every .py file of the project's packages."""
    found = {}
    for package, folder in PACKAGE_DIRS.items():
        base = ROOT / folder
        for path in sorted(base.rglob("*.py")):
            parts = list(path.relative_to(base).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            found[".".join([package, *parts])] = path
    return found


MODULES = _modules()


def _is_package(module: str) -> bool:
    return MODULES[module].name == "__init__.py"


def _imports(module: str) -> list[Import]:
    """Every import statement of ``module``, at any depth (functions, classes, try blocks)."""
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"), filename=str(MODULES[module]))
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.extend(Import(module, node.lineno, 0, (alias.name,)) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                package = module if _is_package(module) else module.rpartition(".")[0]
                for _ in range(node.level - 1):
                    package = package.rpartition(".")[0]
                base = f"{package}.{node.module}" if node.module else package
            else:
                base = node.module
            out.append(Import(module, node.lineno, node.level, (base, *(f"{base}.{a.name}" for a in node.names))))
    return out


IMPORTS = {module: _imports(module) for module in MODULES}


def _project_modules(imp: Import) -> set[str]:
    """The project modules an import loads directly: ``from pkg import sub`` loads pkg.sub
    when that is a module, else pkg itself (parent packages' ``__init__`` are not counted)."""
    base, *names = imp.targets
    subs = {name for name in names if name in MODULES}
    if subs:
        return subs
    while base and base not in MODULES:
        base = base.rpartition(".")[0]
    return {base} if base else set()


def _top(module: str) -> str:
    for package, top in TOP.items():
        if module == package or module.startswith(package + "."):
            return top
    return "scorecard"


def test_the_package_map_finds_the_modules():
    assert {"scorecard.cli", "scorecard.runtime.model", "scorecard.runtime.errors", "scorecard.exporters.registry",
            "scorecard.trainer"} <= set(MODULES)
    assert {_top(m) for m in MODULES} >= {"runtime", "trainer", "exporters", "scorecard"}


def test_runtime_imports_only_the_standard_library_and_itself():
    stdlib = set(sys.stdlib_module_names) | {"__future__"}
    bad = []
    for module, imports in IMPORTS.items():
        if _top(module) != "runtime":
            continue
        for imp in imports:
            target = imp.targets[0]
            if imp.level:
                if not (target == "scorecard.runtime" or target.startswith("scorecard.runtime.")):
                    bad.append(f"{imp.where()}: relative import of {target} leaves the runtime")
            elif target.split(".")[0] not in stdlib:
                bad.append(f"{imp.where()}: imports {target} (runtime/ may use the standard library "
                           "and relative runtime modules only)")
    assert not bad, "\n".join(bad)


def test_exporters_never_import_the_trainer():
    bad = [f"{imp.where()}: imports {imp.targets[0]}"
           for module, imports in IMPORTS.items() if _top(module) == "exporters"
           for imp in imports for target in imp.targets[:1]
           if target == "scorecard.trainer" or target.startswith("scorecard.trainer.")]
    assert not bad, "\n".join(bad)


def _graph() -> dict[str, set[str]]:
    return {module: set().union(*(_project_modules(imp) for imp in imports)) if imports else set()
            for module, imports in IMPORTS.items()}


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with a cycle (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1 or v in graph.get(v, ()):
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def _describe(component: list[str], graph: dict[str, set[str]]) -> str:
    edges = [f"{a} -> {b} (line {', '.join(str(i.line) for i in IMPORTS[a] if b in _project_modules(i))})"
             for a in component for b in sorted(graph[a]) if b in component]
    return "cycle among " + ", ".join(component) + ":\n    " + "\n    ".join(edges)


@pytest.mark.parametrize("package", ["runtime", "exporters", "scorecard", "trainer", "between packages"])
def test_no_import_cycles(package):
    """Per top-level package (its own modules only), and across packages."""
    graph = _graph()
    cycles = [c for c in _cycles(graph)
              if ({_top(m) for m in c} == {package} if package != "between packages" else len({_top(m) for m in c}) > 1)]
    assert not cycles, "\n".join(_describe(c, graph) for c in cycles)


def test_the_cycle_finder_sees_function_level_imports():
    graph = {"a": {"b"}, "b": {"a"}, "c": {"c"}, "d": {"a"}}
    assert _cycles(graph) == [["a", "b"], ["c"]]
