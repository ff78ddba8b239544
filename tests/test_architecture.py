"""Architecture rules that keep the core a kernel and the plugins honest.

The core (``core/``, distribution ``assay``) holds the protocols, registries, records, errors,
converter machinery and CLI frame, and names no plugin: not in its imports, not in its data, not
in its prose. Every capability is a plugin distribution under ``plugins/``, which uses only the
core's public API. The tests below check those rules on the installed workspace.
"""

from __future__ import annotations

import ast
import io
import json
import re
import subprocess
import sys
import tokenize
import tomllib
import warnings
from collections.abc import Iterator
from importlib import metadata
from pathlib import Path

import attrs
import pytest
from packaging.requirements import Requirement

import assay
import assay.cli
import assay.jsmath
import assay.testing
import assay.wire
from assay import _records

ROOT = Path(__file__).resolve().parents[1]
CORE = ROOT / "core"
CORE_SRC = CORE / "src"
PLUGIN_DIRS = sorted(
    p
    for p in (ROOT / "plugins").iterdir()
    if p.is_dir() and not p.name.startswith("_") and (p / "pyproject.toml").is_file()
)
# Meta distributions hold no capability of their own: dependencies only, no entry point.
META_DISTRIBUTIONS = {"assay-all"}
PLUGINS = [p for p in PLUGIN_DIRS if p.name not in META_DISTRIBUTIONS]
DISTRIBUTIONS = [CORE, *PLUGIN_DIRS]
# Packages outside the workspace that are written the way a third party writes a plugin.
EXTERNAL_PLUGIN_SOURCES = [
    ROOT / "examples" / "plugin-package" / "src",
    ROOT / "plugins" / "_template" / "src",
    *sorted((ROOT / "tests" / "packages").glob("*/src")),
]

CORE_MAX_LINES = 2500
CORE_MAX_PUBLIC_NAMES = 40


def _meta(path: Path) -> dict:
    return tomllib.loads((path / "pyproject.toml").read_text(encoding="utf-8"))


def _python_files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*.py") if "__pycache__" not in p.parts)


def _is_type_checking_block(node: ast.AST) -> bool:
    test = getattr(node, "test", None)
    return isinstance(node, ast.If) and (
        (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING")
        or (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")
    )


def _import_nodes(tree: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    """Every import that runs: at module level or inside a function or class (``if
    TYPE_CHECKING:`` blocks are skipped: they never run, and type-only references between
    modules are how annotations are meant to work)."""
    stack = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node
        if _is_type_checking_block(node):
            stack.extend(getattr(node, "orelse", []))
            continue
        stack.extend(ast.iter_child_nodes(node))


def _imports(path: Path) -> list[str]:
    """Absolute module names imported by ``path`` (``from m import n`` gives ``m`` and ``m.n``)."""
    names: list[str] = []
    for node in _import_nodes(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif node.module and node.level == 0:
            names.append(node.module)
            names += [f"{node.module}.{alias.name}" for alias in node.names]
    return names


# ---------------------------------------------------------------------------------------------
# (a) the core names no plugin
# ---------------------------------------------------------------------------------------------

# String constants in plugin sources that look like identifiers of a plugin's data: warning codes,
# rule ids and registered names (kebab-case), input fields and wire keys (camelCase), error codes
# and constants (UPPER_SNAKE).
_DATA_SHAPES = (
    re.compile(r"^[a-z][a-z0-9]*(?:-[a-z0-9.]+)+$"),
    re.compile(r"^[a-z][a-z0-9]*(?:[A-Z][a-z0-9]*)+$"),
    re.compile(r"^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$"),
)

# Plain words that are plugin names but also ordinary words the kernel needs; each with why.
GENERIC_WORDS = {
    "pytest": "the test framework assay.testing builds on (also the assay-pytest entry point)",
    "judges": "the plural of the kernel's own Judge protocol",
    "default": "Python's and English's word (a metric-set name of a plugin)",
    "string": "an ordinary word (a distance name of a plugin)",
    "numeric": "an ordinary word (a distance name of a plugin)",
    "utf-8": "the text encoding every file is read in",
}


# The environment switches the core reads (plugins may set them, in tests say).
CORE_SWITCHES = {
    "ASSAY_DISABLE_PLUGINS",
    "ASSAY_PLUGINS",
    "ASSAY_STRICT_PLUGINS",
    "ASSAY_PURE_PYTHON",
}


def _core_vocabulary() -> set[str]:
    """Names the core itself defines, which plugins use and the core may of course name: its
    error codes, exit codes, public names, environment switches and the wire keys of its own
    records."""
    words = {value for key, value in vars(assay.ErrorCode).items() if not key.startswith("_")}
    words |= CORE_SWITCHES
    words |= {member.name for member in assay.ExitCode}
    for module in (assay, assay.cli, assay.wire, assay.jsmath, assay.testing):
        words |= set(module.__all__)
    for name in _records.__all__:
        cls = getattr(_records, name)
        if isinstance(cls, type) and attrs.has(cls):
            words |= {assay.wire.to_camel(field.name) for field in attrs.fields(cls)}
    return words


def _docstring_nodes(tree: ast.AST) -> set[int]:
    ids = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                ids.add(id(body[0].value))
    return ids


def plugin_names() -> dict[str, str]:
    """Every name that belongs to a plugin, with where it was found."""
    names: dict[str, str] = {}

    def add(name: str | None, where: str) -> None:
        if name:
            names.setdefault(name, where)

    # 1. installed entry points of group "assay", and the workspace's plugin metadata
    for ep in metadata.entry_points(group=assay.ENTRY_POINT_GROUP):
        dist = ep.dist.metadata["Name"] if ep.dist is not None else None
        if dist == "assay":
            continue
        where = f"entry point {ep.name} of {dist}"
        add(ep.name, where)
        add(dist, where)
        add(ep.module, where)
        add(ep.module.partition(".")[0], where)
    for plugin in PLUGIN_DIRS:
        meta = _meta(plugin)["project"]
        add(meta["name"], f"{plugin.name}/pyproject.toml")
        for group in meta.get("entry-points", {}).values():
            for ep_name, value in group.items():
                add(ep_name, f"{plugin.name}/pyproject.toml")
                add(value.partition(":")[0].partition(".")[0], f"{plugin.name}/pyproject.toml")
        for package in (plugin / "src").glob("*/__init__.py"):
            add(package.parent.name, f"{plugin.name}/src")
    # 2. what the installed plugins register, and the input fields their dimensions read
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        registry = assay.build_registry()
    for registration in registry:
        if registration.provider.plugin == "assay":
            continue
        where = f"{registration.kind} registered by {registration.provider.plugin}"
        add(registration.name, where)
        for field in getattr(registration.obj, "reads", ()) or ():
            add(field, where)
        for code, field in (getattr(registration.obj, "missing_signals", {}) or {}).items():
            add(code, where)
            add(field, where)
    # 3. warning codes, rule ids, input fields and error codes written in plugin sources
    for plugin in PLUGIN_DIRS:
        for path in _python_files(plugin / "src"):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            docstrings = _docstring_nodes(tree)
            for node in ast.walk(tree):
                if (
                    isinstance(node, ast.Constant)
                    and isinstance(node.value, str)
                    and id(node) not in docstrings
                    and any(shape.match(node.value) for shape in _DATA_SHAPES)
                ):
                    add(node.value, str(path.relative_to(ROOT)))
    vocabulary = _core_vocabulary()
    return {n: w for n, w in names.items() if n not in vocabulary and n not in GENERIC_WORDS}


def _is_distinctive(name: str) -> bool:
    """A name that cannot be an ordinary word: it has a separator or a digit, an inner capital
    (camelCase), or at least 6 letters. Shorter plain words (``pad``, ``swap``, ``gate``,
    ``crag``...) are left out: they are everyday English the kernel's prose may need."""
    return bool(re.search(r"[-_.:/0-9]", name) or re.search(r".[A-Z]", name)) or len(name) >= 6


def _strings_and_comments(text: str) -> str:
    """The text of every string literal (docstrings included) and comment of a module, with
    everything else blanked out (line numbers kept)."""
    lines = text.splitlines(keepends=True)
    kept = [re.sub(r"[^\n]", " ", line) for line in lines]
    for token in tokenize.generate_tokens(io.StringIO(text).readline):
        if token.type in _TEXT_TOKENS:
            (row, col), (end_row, end_col) = token.start, token.end
            for r in range(row, end_row + 1):
                start = col if r == row else 0
                stop = end_col if r == end_row else len(lines[r - 1])
                line = kept[r - 1]
                kept[r - 1] = line[:start] + lines[r - 1][start:stop] + line[stop:]
    return "".join(kept)


_TEXT_TOKENS = {tokenize.STRING, tokenize.COMMENT} | (
    {tokenize.FSTRING_MIDDLE} if hasattr(tokenize, "FSTRING_MIDDLE") else set()
)


def test_the_core_names_no_plugin() -> None:
    """No plugin name appears in core/src as a whole word.

    The rule: every name collected by :func:`plugin_names` (entry-point, distribution and module
    names; registered names of every kind; input fields; kebab-case, camelCase and UPPER_SNAKE
    string constants of plugin sources) that :func:`_is_distinctive` accepts must not occur in
    the core, where a word is delimited by anything but letters, digits, ``_`` and ``-``:

    * a name with a separator, a digit or an inner capital matches exactly, anywhere (imports,
      code, strings, comments, docstrings);
    * a plain lowercase word matches in any case, but only in string literals (docstrings
      included) and comments: in code it is an identifier of the core's own (a local variable
      ``candidates``), not a reference to a plugin.

    Excluded: the core's own vocabulary (its error codes, exit codes, public names and record
    wire keys, which plugins use) and the few ordinary words in ``GENERIC_WORDS``.
    """
    names = plugin_names()
    assert len(names) > 100, "too few plugin names found: is the workspace installed?"
    offenders = []
    for path in _python_files(CORE_SRC):
        text = path.read_text(encoding="utf-8")
        prose = _strings_and_comments(text)
        for name, where in sorted(names.items()):
            if not _is_distinctive(name):
                continue
            plain = re.fullmatch(r"[a-z]+", name) is not None
            pattern = rf"(?<![\w-]){re.escape(name)}(?![\w-])"
            searched, flags = (prose, re.IGNORECASE) if plain else (text, 0)
            for match in re.finditer(pattern, searched, flags):
                line = searched.count("\n", 0, match.start()) + 1
                offenders.append(f"{path.relative_to(ROOT)}:{line}: {name!r} ({where})")
    assert not offenders, "\n".join(offenders)


def test_the_name_rule_reads_strings_and_comments_only_for_plain_words() -> None:
    prose = _strings_and_comments('candidates = f(\'x\')  # grounding\n"""retrieval"""\n')
    assert "candidates" not in prose and "x" in prose
    assert "grounding" in prose and "retrieval" in prose
    assert prose.count("\n") == 2


def test_the_core_switches_are_the_cores() -> None:
    core_text = "".join(p.read_text(encoding="utf-8") for p in _python_files(CORE_SRC))
    assert set(re.findall(r"\bASSAY_[A-Z_]+\b", core_text)) == CORE_SWITCHES


def test_the_core_imports_no_plugin() -> None:
    offenders = [
        f"{path.relative_to(ROOT)}: {name}"
        for path in _python_files(CORE_SRC)
        for name in _imports(path)
        if name.startswith("assay_")
    ]
    assert not offenders, offenders


# ---------------------------------------------------------------------------------------------
# (b), (c), (d) the core stays small, pure Python and cheap to import
# ---------------------------------------------------------------------------------------------


def test_the_core_is_small_and_pure_python() -> None:
    lines = sum(len(p.read_text(encoding="utf-8").splitlines()) for p in _python_files(CORE_SRC))
    assert lines <= CORE_MAX_LINES, f"core/src holds {lines} lines (kernel budget {CORE_MAX_LINES})"
    compiled = [
        str(p.relative_to(ROOT))
        for p in CORE.rglob("*")
        if p.suffix in {".pyx", ".pxd", ".c", ".cpp", ".so", ".pyd"} and ".venv" not in p.parts
    ]
    assert not compiled, compiled
    assert not (CORE / "setup.py").exists()
    assert _meta(CORE)["build-system"]["build-backend"] == "uv_build"  # pure-Python wheels only


def test_the_public_api_stays_small() -> None:
    assert len(assay.__all__) <= CORE_MAX_PUBLIC_NAMES, len(assay.__all__)
    assert len(set(assay.__all__)) == len(assay.__all__)


def test_import_assay_loads_no_heavy_module() -> None:
    """``import assay`` in a fresh interpreter loads none of these (a check of ``sys.modules``,
    not a timing): the plugin host, entry points, worker pools, serialization and the CLI load
    when first used. benchmarks/import_time.py measures the time."""
    heavy = [
        "multiprocessing",
        "concurrent.futures",
        "orjson",
        "click",
        "cattrs",
        "importlib.metadata",
        "numpy",
        "pluggy",
    ]
    code = "import json, sys, assay; print(json.dumps(sorted(sys.modules)))"
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    loaded = set(json.loads(result.stdout))
    assert not [name for name in heavy if name in loaded], sorted(loaded & set(heavy))


# ---------------------------------------------------------------------------------------------
# (e) plugins use the public API only
# ---------------------------------------------------------------------------------------------


def _private_core_imports(path: Path) -> list[str]:
    found = []
    for node in _import_nodes(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [a.name for a in node.names if a.name.startswith("assay._")]
        elif node.level == 0 and node.module:
            if node.module.startswith("assay._"):
                found.append(node.module)
            elif node.module == "assay":
                found += [f"assay.{a.name}" for a in node.names if a.name.startswith("_")]
    return found


def test_plugins_import_only_the_public_core_api() -> None:
    sources = [plugin / "src" for plugin in PLUGIN_DIRS] + EXTERNAL_PLUGIN_SOURCES
    offenders = [
        f"{path.relative_to(ROOT)}: {name}"
        for source in sources
        for path in _python_files(source)
        for name in _private_core_imports(path)
    ]
    assert not offenders, offenders


def test_plugins_do_not_reach_into_other_plugins_private_modules() -> None:
    offenders = []
    for plugin in PLUGIN_DIRS:
        own = plugin.name.replace("-", "_")
        for path in _python_files(plugin / "src"):
            for name in _imports(path):
                top, _, rest = name.partition(".")
                if (
                    top.startswith("assay_")
                    and top != own
                    and any(p.startswith("_") for p in rest.split("."))
                ):
                    offenders.append(f"{path.relative_to(ROOT)}: {name}")
    assert not offenders, offenders


# ---------------------------------------------------------------------------------------------
# (f) no import cycles inside a distribution
# ---------------------------------------------------------------------------------------------


def _module_graph(src: Path) -> dict[str, set[str]]:
    """Module -> the modules of the same distribution it imports (top level and inside
    functions; relative imports resolved; ``from pkg import name`` points at ``pkg.name`` when
    that is a module, else at ``pkg``)."""
    modules: dict[str, Path] = {}
    for path in _python_files(src):
        parts = list(path.relative_to(src).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        modules[".".join(parts)] = path
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in _import_nodes(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            else:
                base = node.module or ""
                if node.level:
                    anchor = package.split(".")
                    anchor = anchor[: len(anchor) - (node.level - 1)]
                    base = ".".join([*anchor, base] if base else anchor)
                targets = [
                    f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base
                    for alias in node.names
                ]
            graph[name] |= {t for t in targets if t in modules and t != name}
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_cycle_finder_finds_a_cycle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert _cycles(graph) == [["a", "b", "c"]]


def test_no_import_cycles_inside_any_distribution() -> None:
    cycles = {}
    for dist in DISTRIBUTIONS:
        found = _cycles(_module_graph(dist / "src"))
        if found:
            cycles[dist.name] = found
    assert not cycles, json.dumps(cycles, indent=1)


# ---------------------------------------------------------------------------------------------
# (g) distributions: metadata, typing marker, dependencies
# ---------------------------------------------------------------------------------------------


def test_every_distribution_ships_py_typed() -> None:
    missing = []
    for dist in DISTRIBUTIONS:
        packages = [p.parent for p in (dist / "src").glob("*/__init__.py")]
        assert packages, f"{dist.name} has no package under src/"
        missing += [str(p.relative_to(ROOT)) for p in packages if not (p / "py.typed").is_file()]
    assert not missing, f"no py.typed in: {missing}"


def test_every_plugin_is_a_distribution_with_entry_point_tests_and_readme() -> None:
    assert PLUGINS
    for plugin in PLUGIN_DIRS:
        meta = _meta(plugin)
        assert meta["project"]["name"] == plugin.name
        if plugin.name not in META_DISTRIBUTIONS:
            assert meta["project"]["entry-points"]["assay"], plugin.name
        assert any((plugin / "tests").glob("test_*.py")), f"{plugin.name} has no tests"
        assert (plugin / "README.md").is_file(), plugin.name


def test_workspace_dependencies_admit_the_workspace_versions() -> None:
    """A dependency on another package of this repository admits that package's version, so
    the wheels install together outside the workspace (where the version is what counts)."""
    versions = {_meta(d)["project"]["name"]: _meta(d)["project"]["version"] for d in DISTRIBUTIONS}
    wrong = []
    for dist in DISTRIBUTIONS:
        for text in _meta(dist)["project"].get("dependencies", []):
            requirement = Requirement(text)
            version = versions.get(requirement.name)
            if version is not None and version not in requirement.specifier:
                wrong.append(f"{dist.name}: {text} (the workspace has {version})")
    assert not wrong, wrong


def test_core_dependencies_stay_small() -> None:
    names = {
        re.split(r"[<>=!~\[; ]", dep, maxsplit=1)[0]
        for dep in _meta(CORE)["project"]["dependencies"]
    }
    # pluggy: the plugin host; attrs and cattrs: records and their wire shapes; click: the CLI
    assert names <= {"pluggy", "attrs", "cattrs", "click"}, names


# ---------------------------------------------------------------------------------------------
# the test tree
# ---------------------------------------------------------------------------------------------


def test_a_missing_shared_path_skips_naming_it() -> None:
    from shared_data import SHARED, shared_path

    with pytest.raises(pytest.skip.Exception, match=r"needs .*no-such-file"):
        shared_path("no-such-file")
    if SHARED.is_dir():
        assert shared_path() == SHARED


def test_assay_testing_is_opt_in() -> None:
    """Installing assay registers no pytest plugin; these tests opt in through conftest.py."""
    core_entry_points = _meta(CORE)["project"].get("entry-points", {})
    assert "pytest11" not in core_entry_points
    dist = metadata.distribution("assay")
    assert not [ep for ep in dist.entry_points if ep.group == "pytest11"]


def test_the_opt_in_fixtures_are_available(assay_empty_registry: assay.Registry) -> None:
    assert [record.name for record in assay_empty_registry.plugins] == ["assay.commands"]


def test_ci_runs_the_readme_test_command_and_fails_with_it() -> None:
    """.ci/run runs the README's test command to the letter, as its last command, under
    ``set -e``: a failing test fails CI."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    command = "python3 -m pip install uv && uv run --all-packages --all-extras pytest"
    assert command in readme
    script = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    lines = [line for line in script.splitlines() if line.strip() and not line.startswith("#")]
    assert "set -euo pipefail" in lines
    assert lines[-1] == command
