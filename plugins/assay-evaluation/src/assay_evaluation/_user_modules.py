"""Loading a team's own metric modules without packaging them: ``assay eval --plugin
my_metrics.py`` (repeatable) and the ``ASSAY_EVAL_PLUGINS`` environment variable."""

from __future__ import annotations

import importlib
import importlib.util
import os
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path
from types import ModuleType

from assay import AssayError, ErrorCode

__all__ = ["PLUGINS_ENV", "load_module", "load_plugins", "plugin_specs"]

PLUGINS_ENV = "ASSAY_EVAL_PLUGINS"
"""Environment variable: Python files (or importable module names) to load before
``assay eval`` runs, separated by ``os.pathsep`` (``:`` on Linux and macOS). ``ASSAY_PLUGINS``
is taken: it allow-lists installed plugins by name."""


def plugin_specs(cli: Iterable[str] = (), env: Mapping[str, str] | None = None) -> list[str]:
    """The modules to load: those of :data:`PLUGINS_ENV`, then ``cli``'s, each once."""
    env = os.environ if env is None else env
    found = [part for part in env.get(PLUGINS_ENV, "").split(os.pathsep) if part.strip()]
    return list(dict.fromkeys([*found, *cli]))


def load_module(spec: str | os.PathLike[str]) -> ModuleType:
    """Import ``spec``: a Python file (by path), else a module name on ``sys.path``. A file is
    imported once, under its file name (``my_metrics``), or ``assay_plugin_<name>`` when a
    different module already has that name; running it registers its ``@metric`` functions.

    :raises AssayError: ``IO_ERROR`` for a ``.py`` path that does not exist; ``PLUGIN_ERROR``
        when importing fails (the message names the file and the exception).
    """
    text = os.fspath(spec)
    path = Path(text)
    if not text.endswith(".py") and not path.is_file():
        try:
            return importlib.import_module(text)
        except Exception as exc:
            raise _failed(text, exc) from exc
    if not path.is_file():
        raise AssayError(ErrorCode.IO_ERROR, f"no such Python file: {text}", "--plugin")
    resolved = path.resolve()
    name = path.stem
    loaded = sys.modules.get(name)
    if loaded is not None:
        if getattr(loaded, "__file__", None) and Path(loaded.__file__ or "").resolve() == resolved:
            return loaded
        name = f"assay_plugin_{path.stem}"
        if name in sys.modules:
            return sys.modules[name]
    module_spec = importlib.util.spec_from_file_location(name, resolved)
    if module_spec is None or module_spec.loader is None:
        raise AssayError(ErrorCode.PLUGIN_ERROR, f"cannot import {text}", "--plugin")
    module = importlib.util.module_from_spec(module_spec)
    sys.modules[name] = module  # before running it, as an import does (pickling finds it)
    try:
        module_spec.loader.exec_module(module)
    except Exception as exc:
        del sys.modules[name]
        raise _failed(text, exc) from exc
    return module


def _failed(spec: str, exc: BaseException) -> AssayError:
    if isinstance(exc, AssayError):
        return AssayError(exc.code, f"importing {spec}: {exc.message}", exc.path or "--plugin")
    return AssayError(
        ErrorCode.PLUGIN_ERROR,
        f"importing {spec} failed: {type(exc).__name__}: {exc}",
        "--plugin",
    )


def load_plugins(
    specs: Iterable[str] = (), env: Mapping[str, str] | None = None
) -> list[ModuleType]:
    """Load every module of :func:`plugin_specs` (the environment's, then ``specs``), in
    order; see :func:`load_module`."""
    return [load_module(spec) for spec in plugin_specs(specs, env)]
