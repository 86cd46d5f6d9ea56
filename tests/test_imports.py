"""The package's import graph, built from the source: no module imports itself back.

Every ``import`` and ``from ... import`` of a ``numbadlx`` module counts: at the top of
a file, inside a function, and under ``if TYPE_CHECKING:`` too (a module that would
only annotate with a class of a module that imports it names the class in its
docstring instead).

The only edges set aside are the display hooks: a lower layer's object
(``_repr_html_``, ``play``) asks :mod:`numbadlx.display` to draw it. They are the
upward imports that pyproject.toml's import-linter contract lists under
``ignore_imports``, and each must stay inside a function, so that importing the lower
layer never loads the display layer.
"""

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1] / "numbadlx"
PYPROJECT = ROOT.parent / "pyproject.toml"


def _module_of(path):
    parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
    is_package = parts[-1] == "__init__"
    if is_package:
        parts.pop()
    return ".".join(parts), is_package


def _modules():
    """``{module name: (path, is_package)}`` for every source file of the package."""
    found = {}
    for path in sorted(ROOT.rglob("*.py")):
        name, is_package = _module_of(path)
        found[name] = (path, is_package)
    return found


def _imports(module, is_package, text, known):
    """``[(target module, line, inside a function)]`` for each numbadlx import of a
    module's source. ``from a import b`` names module ``a.b`` when that is a module of
    the package, else ``a`` (``b`` is then a name defined in ``a``)."""
    home = module if is_package else module.rpartition(".")[0]
    tree = ast.parse(text)
    in_function = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            in_function.update(id(inner) for inner in ast.walk(node) if inner is not node)
    edges = []
    for node in ast.walk(tree):
        local = id(node) in in_function
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in known:
                    edges.append((alias.name, node.lineno, local))
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = home.split(".")
                base = base[: len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target not in known:
                continue
            for alias in node.names:
                full = f"{target}.{alias.name}"
                edges.append((full if full in known else target, node.lineno, local))
    return edges


def import_graph():
    """``{module: {imported module: [(line, inside a function), ...]}}``."""
    modules = _modules()
    graph = {name: {} for name in modules}
    for name, (path, is_package) in modules.items():
        for target, line, local in _imports(name, is_package, path.read_text(), modules):
            if target != name:
                graph[name].setdefault(target, []).append((line, local))
    return graph


def hooks():
    """The ignored imports of the import-linter contract, as ``(importer, imported)``."""
    text = PYPROJECT.read_text(encoding="utf-8")
    listed = re.search(r"ignore_imports\s*=\s*\[(.*?)\]", text, re.S)
    assert listed, "pyproject.toml lists no ignore_imports"
    return re.findall(r'"(numbadlx[\w.]*)\s*->\s*(numbadlx[\w.]*)"', listed.group(1))


def cycles(graph):
    """The strongly connected components of more than one module (Tarjan's algorithm,
    iterative), each as a sorted list."""
    index, low, on_stack, stack, found = {}, {}, set(), [], []
    counter = 0
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(graph[root]))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(graph[child])))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_the_graph_sees_the_package():
    graph = import_graph()
    assert {"numbadlx.core.problem", "numbadlx.display", "numbadlx.cli"} <= set(graph)
    # a top-level import and a function-level one (a display hook)
    assert "numbadlx.core.search" in graph["numbadlx.core.problem"]
    assert any(target.startswith("numbadlx.display") for target in graph["numbadlx.core.problem"])


def test_the_hooks_are_imports_inside_functions():
    graph = import_graph()
    listed = hooks()
    assert listed
    for importer, imported in listed:
        assert imported.startswith("numbadlx.display."), (importer, imported)
        assert importer in graph and imported in graph, (importer, imported)
        where = graph[importer].get(imported)
        assert where, f"{importer} no longer imports {imported}: drop it from ignore_imports"
        assert all(local for _, local in where), (
            f"{importer} imports {imported} at module level (lines {[n for n, _ in where]}); "
            f"a display hook must import inside the function that draws"
        )


def test_no_import_cycle_but_the_display_hooks():
    graph = import_graph()
    for importer, imported in hooks():
        graph[importer].pop(imported, None)
    found = cycles(graph)
    assert found == [], f"modules that import each other, directly or round a loop: {found}"


@pytest.mark.parametrize(
    "edges, expected",
    [
        ({"a": ["b"], "b": ["c"], "c": ["a"], "d": ["a"]}, [["a", "b", "c"]]),
        ({"a": ["b"], "b": ["c"], "c": []}, []),
        ({"a": ["b"], "b": ["a"], "c": ["d"], "d": ["c"]}, [["a", "b"], ["c", "d"]]),
    ],
)
def test_the_cycle_finder(edges, expected):
    assert sorted(cycles({node: dict.fromkeys(targets) for node, targets in edges.items()})) == (
        expected
    )
