"""Plugin discovery: built-ins and ``assay`` entry points, loaded one by one.

Environment variables (read when a host is created, never at import time):

``ASSAY_DISABLE_PLUGINS``
    comma-separated plugin names not to load (recorded as ``disabled``).
``ASSAY_PLUGINS``
    comma-separated allow-list: only these entry-point plugins load (built-ins always do).
``ASSAY_STRICT_PLUGINS``
    ``1``/``true``: a plugin that fails to load or register raises :class:`~assay.AssayError`
    (``PLUGIN_ERROR``) instead of being recorded as broken with a warning. Meant for CI.
"""

from __future__ import annotations

import importlib
import os
import threading
import warnings
from collections.abc import Iterable, Mapping
from types import ModuleType
from typing import TYPE_CHECKING, Any

import pluggy

from assay import _hookspecs
from assay._builtins import BUILTIN_MODULES
from assay._errors import AssayError, ErrorCode, PluginLoadWarning
from assay._registry import PluginRecord, Provider, Registrar, Registry

if TYPE_CHECKING:
    from importlib.metadata import EntryPoint

    import click

__all__ = ["PluginHost", "build_registry", "default_registry", "register", "reset_default_registry"]

_TRUE = {"1", "true", "yes", "on"}


def _split(value: str | None) -> set[str]:
    return {part.strip() for part in (value or "").split(",") if part.strip()}


def _core_version() -> str | None:
    from importlib import metadata  # here, not at import: only a registry build needs it

    try:
        return metadata.version("assay")
    except metadata.PackageNotFoundError:  # running from a source tree without install
        return None


class PluginHost:
    """Finds plugins, loads them one at a time and calls their hooks.

    A typed facade over a :class:`pluggy.PluginManager`: one method per hook
    (:meth:`register_objects`, :meth:`add_cli_commands`), so nothing else calls ``pm.hook``.

    :param strict: raise on a broken plugin instead of recording it (default: from
        ``ASSAY_STRICT_PLUGINS``).
    :param load_entry_points: also load the ``assay`` entry-point group (default ``True``).
    :param env: environment to read the switches from (default ``os.environ``).
    :param extra_plugins: additional plugin objects or modules to register, as
        ``{name: module}`` (used by tests and by applications embedding plugins).
    """

    def __init__(
        self,
        *,
        strict: bool | None = None,
        load_entry_points: bool = True,
        env: Mapping[str, str] | None = None,
        extra_plugins: Mapping[str, Any] | None = None,
    ) -> None:
        env = os.environ if env is None else env
        self.strict = (
            strict if strict is not None else env.get("ASSAY_STRICT_PLUGINS", "").lower() in _TRUE
        )
        self.disabled = _split(env.get("ASSAY_DISABLE_PLUGINS"))
        allowed = env.get("ASSAY_PLUGINS")
        self.allowed = _split(allowed) if allowed is not None else None
        self.pm = pluggy.PluginManager(_hookspecs.PROJECT_NAME)
        self.pm.add_hookspecs(_hookspecs)
        self.records: dict[str, PluginRecord] = {}
        self._providers: dict[str, Provider] = {}
        core = Provider("assay", "assay", _core_version())
        for module_name in BUILTIN_MODULES:
            module = importlib.import_module(module_name)
            self._add(module_name.replace("._builtins.", "."), module, core, builtin=True)
        for name, plugin in (extra_plugins or {}).items():
            self._add(name, plugin, Provider(name), builtin=False)
        if load_entry_points:
            self._load_entry_points()

    # ------------------------------------------------------------------ discovery
    def _entry_points(self) -> Iterable[EntryPoint]:
        from importlib import metadata

        return metadata.entry_points(group=_hookspecs.ENTRY_POINT_GROUP)

    def _load_entry_points(self) -> None:
        for ep in sorted(self._entry_points(), key=lambda e: e.name):
            dist = getattr(ep, "dist", None)
            provider = Provider(
                ep.name,
                dist.metadata["Name"] if dist is not None else None,
                dist.version if dist is not None else None,
            )
            if ep.name in self.disabled or (
                self.allowed is not None and ep.name not in self.allowed
            ):
                why = (
                    "disabled by ASSAY_DISABLE_PLUGINS"
                    if ep.name in self.disabled
                    else "not in ASSAY_PLUGINS"
                )
                self.records[ep.name] = PluginRecord(
                    ep.name, provider.distribution, provider.version, status="disabled", error=why
                )
                continue
            try:
                module = ep.load()
            except Exception as exc:  # a broken plugin must not take the others down
                self._broken(ep.name, provider, exc, stage="load")
                continue
            self._add(ep.name, module, provider, builtin=False)

    def _add(self, name: str, module: ModuleType | Any, provider: Provider, builtin: bool) -> None:
        if name in self.records:
            other = self._providers.get(name, provider)
            self._broken(
                name,
                provider,
                AssayError(
                    ErrorCode.DUPLICATE_NAME,
                    f"plugin name {name!r} is used by {other.describe()} and {provider.describe()}",
                ),
                stage="load",
            )
            return
        try:
            self.pm.register(module, name=name)
            unknown = [
                attr
                for attr in dir(module)
                if attr.startswith("assay_")
                and getattr(getattr(self.pm.hook, attr, None), "spec", None) is None
            ]
            if unknown:
                self.pm.unregister(name=name)
                raise AssayError(
                    ErrorCode.PLUGIN_ERROR,
                    f"plugin {name!r} implements unknown hook(s): {', '.join(unknown)}",
                )
        except Exception as exc:
            if builtin:
                raise
            self._broken(name, provider, exc, stage="load")
            return
        hooks = tuple(caller.name for caller in self.pm.get_hookcallers(module) or ())
        self._providers[name] = provider
        self.records[name] = PluginRecord(name, provider.distribution, provider.version, hooks)

    def _broken(self, name: str, provider: Provider, exc: BaseException, stage: str) -> None:
        error = f"{type(exc).__name__}: {exc}"
        self.records[name] = PluginRecord(
            name,
            provider.distribution,
            provider.version,
            hooks=self.records[name].hooks if name in self.records else (),
            status="broken",
            error=error,
        )
        message = f"assay plugin {name!r} failed to {stage}: {error}"
        if self.strict:
            raise AssayError(ErrorCode.PLUGIN_ERROR, message, details={"plugin": name}) from exc
        warnings.warn(message, PluginLoadWarning, stacklevel=3)

    # ------------------------------------------------------------------ hooks
    def register_objects(self, registry: Registry) -> Registry:
        """Call every plugin's ``assay_register`` hook, one plugin at a time, into ``registry``.

        A plugin whose hook raises keeps none of its registrations and is recorded broken.
        Finally every plugin's :class:`PluginRecord` is added to the registry.
        """
        registered: dict[str, list[str]] = {}
        for impl in reversed(self.pm.hook.assay_register.get_hookimpls()):
            name = impl.plugin_name
            provider = self._providers[name]
            registrar = Registrar(registry, provider)
            try:
                impl.function(registrar=registrar)
                committed = registrar.commit()
            except Exception as exc:
                self._broken(name, provider, exc, stage="register")
                continue
            registered[name] = [f"{r.kind}:{r.name}" for r in committed]
        for name, record in self.records.items():
            if name in registered:
                record = PluginRecord(
                    record.name,
                    record.distribution,
                    record.version,
                    record.hooks,
                    tuple(registered[name]),
                    record.status,
                    record.error,
                )
                self.records[name] = record
            registry.add_plugin_record(record)
        return registry

    def add_cli_commands(self, cli: click.Group) -> None:
        """Call every plugin's ``assay_cli`` hook, one plugin at a time."""
        for impl in reversed(self.pm.hook.assay_cli.get_hookimpls()):
            try:
                impl.function(cli=cli)
            except Exception as exc:
                self._broken(impl.plugin_name, self._providers[impl.plugin_name], exc, "add CLI")


def build_registry(
    *,
    strict: bool | None = None,
    load_entry_points: bool = True,
    env: Mapping[str, str] | None = None,
    extra_plugins: Mapping[str, Any] | None = None,
) -> Registry:
    """A fresh :class:`Registry` with the built-ins and every installed plugin registered.

    Arguments as for :class:`PluginHost`. Nothing is cached: each call discovers anew (tests use
    this for isolation; applications usually use :func:`default_registry`).
    """
    host = PluginHost(
        strict=strict, load_entry_points=load_entry_points, env=env, extra_plugins=extra_plugins
    )
    return host.register_objects(Registry())


_default: Registry | None = None
_default_lock = threading.Lock()


def default_registry() -> Registry:
    """The process-wide registry, built on first use (not at import)."""
    global _default
    if _default is None:
        with _default_lock:
            if _default is None:
                _default = build_registry()
    return _default


def reset_default_registry() -> None:
    """Forget the process-wide registry; the next :func:`default_registry` call rediscovers."""
    global _default
    with _default_lock:
        _default = None


def register(obj: Any, kind: str | None = None, name: str | None = None) -> Any:
    """Register ``obj`` in the default registry at runtime (provider ``runtime``) and return it,
    so it can be used as a class decorator on an instance factory or called directly.

    :raises AssayError: as :meth:`Registry.register`.
    """
    default_registry().register(obj, kind=kind, name=name)
    return obj
