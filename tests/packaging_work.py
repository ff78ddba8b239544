"""The subprocess work of tests/test_packaging.py, and starting it early.

Building every wheel and then installing each plugin alone into a fresh venv to run its own
tests is a few minutes of subprocess work that reads only the checkout. ``start_early`` (called
by tests/conftest.py once the session has collected the packaging tests) starts it in background
threads, so that it runs on the machine's other core while the rest of the suite runs in this
process; the packaging tests then wait for what is not finished yet (:func:`work`). Where only
packaging tests were selected, two plugins are checked at a time; otherwise one, beside the suite.

Every fresh virtual environment lives in a temporary folder outside the workspace, removed at
the end of the session (:func:`stop`); uv's cache is shared, so third-party wheels are linked
from it, not downloaded again.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import tomllib
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
META_DISTRIBUTIONS = {"assay-all"}
PLUGINS = sorted(
    p.name
    for p in (ROOT / "plugins").iterdir()
    if p.is_dir()
    and not p.name.startswith("_")
    and (p / "pyproject.toml").is_file()
    and p.name not in META_DISTRIBUTIONS
)
# Environment of a command run in a fresh venv: nothing of this run's own environment leaks in.
CLEAN_ENV = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH")}


def uv() -> str:
    found = shutil.which("uv")
    assert found, "uv is on PATH in the workspace set-up (python3 -m pip install uv)"
    return found


def meta(path: Path) -> dict:
    return tomllib.loads((path / "pyproject.toml").read_text(encoding="utf-8"))


def venv(path: Path) -> Path:
    """A fresh virtual environment at ``path`` (created from outside the workspace); its python."""
    subprocess.run(
        [uv(), "venv", "--quiet", "--python", sys.executable, str(path)],
        check=True,
        timeout=300,
        cwd=path.parent,
    )
    return path / "bin" / "python"


def install(python: Path, *requirements: str, cwd: Path, env: dict | None = None) -> None:
    result = subprocess.run(
        [uv(), "pip", "install", "--quiet", "--python", str(python), *requirements],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=cwd,
        env=env,
    )
    assert result.returncode == 0, result.stderr[-3000:]


def build_wheels(out: Path) -> dict[str, Path]:
    """Distribution name -> its wheel, for the core, every plugin and the meta distribution."""
    result = subprocess.run(
        [uv(), "build", "--all-packages", "--wheel", "--quiet", "-o", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    return {path.name.split("-")[0].replace("_", "-"): path for path in out.glob("*.whl")}


def workspace_closure(plugin: str) -> list[Path]:
    """The plugin, the core and every workspace package it depends on (transitively)."""
    wanted, seen = [ROOT / "plugins" / plugin], {}
    while wanted:
        path = wanted.pop()
        project = meta(path)
        name = project["project"]["name"]
        if name in seen:
            continue
        seen[name] = path
        sources = project.get("tool", {}).get("uv", {}).get("sources", {})
        for dep, source in sources.items():
            if isinstance(source, dict) and source.get("workspace"):
                wanted.append(ROOT / "core" if dep == "assay" else ROOT / "plugins" / dep)
    return list(seen.values())


def requirement(path: Path, wheels: dict[str, Path]) -> str:
    """``name[extras] @ file:///...whl``: the built wheel, with every extra the package has."""
    project = meta(path)["project"]
    extras = ",".join(project.get("optional-dependencies", {}))
    return (
        f"{project['name']}{f'[{extras}]' if extras else ''} @ {wheels[project['name']].as_uri()}"
    )


def plugin_alone(plugin: str, wheels: dict[str, Path], folder: Path) -> tuple[int, str]:
    """Install ``plugin`` with only its workspace closure (as wheels) into a fresh venv and run
    its tests there; the exit status and the tail of the output."""
    python = venv(folder / "venv")
    requirements = [requirement(path, wheels) for path in workspace_closure(plugin)]
    install(python, *requirements, "pytest", "pytest-benchmark", "hypothesis", cwd=folder)
    result = subprocess.run(
        [str(python), "-m", "pytest", f"plugins/{plugin}/tests", "-q", "-x"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=900,
        env=CLEAN_ENV,
    )
    return result.returncode, result.stdout[-3000:] + result.stderr[-2000:]


class Work:
    """The wheels and every plugin's alone check, started in background threads: the wheels
    first, then each check as soon as they are built."""

    def __init__(self, alone_at_once: int) -> None:
        self._folder = tempfile.TemporaryDirectory(prefix="assay-packaging-")
        root = Path(self._folder.name)
        # one thread builds the wheels; the others wait for them, then check a plugin each
        self._pool = ThreadPoolExecutor(max_workers=1 + alone_at_once)
        self.wheels: Future[dict[str, Path]] = self._pool.submit(build_wheels, root / "wheels")
        self.alone: dict[str, Future[tuple[int, str]]] = {
            plugin: self._pool.submit(self._check_alone, plugin, root / plugin)
            for plugin in PLUGINS
        }

    def _check_alone(self, plugin: str, folder: Path) -> tuple[int, str]:
        folder.mkdir()
        return plugin_alone(plugin, self.wheels.result(), folder)

    def close(self) -> None:
        """Drop the checks not started yet, wait for those running, remove every venv."""
        self._pool.shutdown(wait=True, cancel_futures=True)
        self._folder.cleanup()


_work: Work | None = None


def start_early(*, alone_at_once: int) -> None:
    """Start the work now, unless it was started already."""
    global _work
    if _work is None:
        _work = Work(alone_at_once)


def work() -> Work:
    """The work, started now with two checks at a time if nothing started it earlier."""
    start_early(alone_at_once=2)
    assert _work is not None
    return _work


def stop() -> None:
    """End the work, if any was started (at the end of the session)."""
    global _work
    if _work is not None:
        _work.close()
        _work = None
