"""Registries of Dimensions, Metrics, Perturbations, Policies, Judges and other named objects.

A :class:`Registry` is an object (iterable, printable), not a module-level dict: every entry
records its provider, duplicate names are refused, and lookups accept a bare ``name`` (when
unambiguous) or a qualified ``plugin/name`` (always).
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import attrs

from assay._errors import AssayError, ErrorCode
from assay._protocols import PROTOCOL_REQUIREMENTS

__all__ = [
    "KNOWN_KINDS",
    "PluginRecord",
    "Provider",
    "Registrar",
    "Registration",
    "Registry",
    "infer_kind",
]

KNOWN_KINDS = ("dimension", "metric", "perturbation", "policy", "judge")
"""Kinds with a protocol in the core. Plugins may register other kinds (``"preset"``,
``"distance"``, ...) with :meth:`Registrar.add`; those are stored unchecked."""

RUNTIME_PROVIDER = "runtime"


@attrs.frozen
class Provider:
    """Who provided a registered object.

    Attributes:
        plugin: the plugin's name (its entry-point name; ``"assay"`` for core built-ins;
            ``"runtime"`` for objects registered by user code).
        distribution: the installed distribution that shipped it, if any.
        version: that distribution's version, if any.
    """

    plugin: str
    distribution: str | None = None
    version: str | None = None

    def describe(self) -> str:
        """``plugin (distribution version)`` for error messages."""
        if self.distribution:
            return f"{self.plugin} ({self.distribution} {self.version or '?'})"
        return self.plugin


@attrs.frozen
class Registration:
    """One registered object with its kind, name and provider."""

    kind: str
    name: str
    obj: Any
    provider: Provider

    @property
    def qualified_name(self) -> str:
        """``plugin/name``, which always resolves."""
        return f"{self.provider.plugin}/{self.name}"


@attrs.frozen
class PluginRecord:
    """What discovery found about one plugin (shown by ``assay plugins``).

    Attributes:
        name: the plugin's name (entry-point name, or module name for built-ins).
        distribution: the distribution that provides it.
        version: its version.
        hooks: the hook names it implements.
        registered: ``kind:name`` of everything it registered.
        status: ``"ok"``, ``"broken"`` or ``"disabled"``.
        error: for broken plugins, ``"ExceptionType: message"``; for disabled ones, why.
    """

    name: str
    distribution: str | None
    version: str | None
    hooks: tuple[str, ...] = ()
    registered: tuple[str, ...] = ()
    status: str = "ok"
    error: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe form used by ``assay plugins --json``."""
        return {
            "name": self.name,
            "distribution": self.distribution,
            "version": self.version,
            "hooks": list(self.hooks),
            "registered": list(self.registered),
            "status": self.status,
            "error": self.error,
        }


def infer_kind(obj: Any) -> str:
    """The protocol kind ``obj`` satisfies, or raise ``INVALID_PLUGIN_OBJECT``.

    Checked in the order dimension, metric, perturbation, judge, policy (the first whose required
    attributes and methods are all present wins).
    """
    if isinstance(obj, type):
        raise AssayError(
            ErrorCode.INVALID_PLUGIN_OBJECT,
            f"{obj.__qualname__} is a class; register an instance of it ({obj.__qualname__}())",
        )
    for kind in ("dimension", "metric", "perturbation", "judge", "policy"):
        if _missing_members(kind, obj) == []:
            return kind
    raise AssayError(
        ErrorCode.INVALID_PLUGIN_OBJECT,
        f"cannot tell which protocol {obj!r} implements; pass kind= explicitly",
    )


def _missing_members(kind: str, obj: Any) -> list[str]:
    attributes, methods = PROTOCOL_REQUIREMENTS[kind]
    missing = [a for a in attributes if not hasattr(obj, a)]
    missing += [m for m in methods if not callable(getattr(obj, m, None))]
    return missing


def _name_of(kind: str, obj: Any) -> str:
    name = getattr(obj, "id" if kind == "metric" else "name", None)
    if not isinstance(name, str) or not name:
        raise AssayError(
            ErrorCode.INVALID_PLUGIN_OBJECT,
            f"a {kind} needs a non-empty string {'id' if kind == 'metric' else 'name'}; "
            f"got {name!r} on {obj!r}",
        )
    return name


class Registry:
    """Named objects by kind, with provenance, and the plugins that provided them.

    Lookups: :meth:`get` and :meth:`lookup` take ``name`` or ``plugin/name``. Iterating yields
    every :class:`Registration`. Thread-safe for concurrent registration and lookup.
    """

    def __init__(self) -> None:
        self._by_kind: dict[str, dict[str, list[Registration]]] = {}
        self._plugins: list[PluginRecord] = []
        self._lock = threading.RLock()

    # ------------------------------------------------------------------ registration
    def register(
        self,
        obj: Any,
        kind: str | None = None,
        name: str | None = None,
        provider: Provider | str = RUNTIME_PROVIDER,
    ) -> Registration:
        """Register ``obj`` at runtime, without packaging it.

        :param obj: a Dimension, Metric, Perturbation, Policy, Judge or any object of another
            kind.
        :param kind: the kind; inferred from the object's members when omitted.
        :param name: the name; the object's ``name`` (``id`` for metrics) when omitted.
        :param provider: who provides it (default ``"runtime"``: qualified ``runtime/<name>``).
        :return: the registration.
        :raises AssayError: ``DUPLICATE_NAME`` when the provider already registered that name;
            ``INVALID_PLUGIN_OBJECT`` when ``obj`` lacks what its protocol requires, or is a
            class rather than an instance of one.
        """
        if isinstance(provider, str):
            provider = Provider(provider)
        kind = kind or infer_kind(obj)
        registration = self._make_registration(kind, obj, name, provider)
        self._commit([registration])
        return registration

    def _make_registration(
        self, kind: str, obj: Any, name: str | None, provider: Provider
    ) -> Registration:
        if kind in KNOWN_KINDS:
            if isinstance(obj, type):
                raise AssayError(
                    ErrorCode.INVALID_PLUGIN_OBJECT,
                    f"{obj.__qualname__} is a class; register an instance of it as a {kind} "
                    f"({obj.__qualname__}() or with its arguments)",
                )
            missing = _missing_members(kind, obj)
            if missing:
                raise AssayError(
                    ErrorCode.INVALID_PLUGIN_OBJECT,
                    f"{obj!r} is registered as a {kind} but lacks {', '.join(missing)}",
                )
            name = name or _name_of(kind, obj)
        if not name:
            raise AssayError(ErrorCode.INVALID_PLUGIN_OBJECT, f"a {kind} needs a name")
        return Registration(kind=kind, name=name, obj=obj, provider=provider)

    def _commit(self, registrations: list[Registration]) -> None:
        with self._lock:
            for reg in registrations:
                for existing in self._by_kind.get(reg.kind, {}).get(reg.name, []):
                    if existing.provider.plugin == reg.provider.plugin:
                        raise AssayError(
                            ErrorCode.DUPLICATE_NAME,
                            f"{reg.kind} {reg.qualified_name!r} is already registered by "
                            f"{existing.provider.describe()}; refused from "
                            f"{reg.provider.describe()}",
                        )
            for reg in registrations:
                self._by_kind.setdefault(reg.kind, {}).setdefault(reg.name, []).append(reg)

    def add_plugin_record(self, record: PluginRecord) -> None:
        """Record what discovery found about a plugin (used by the plugin host)."""
        with self._lock:
            self._plugins.append(record)

    # ------------------------------------------------------------------ lookup
    def lookup(self, kind: str, name: str) -> Registration:
        """The registration of ``kind`` called ``name`` (bare or ``plugin/name``).

        :raises AssayError: ``UNKNOWN_NAME`` when nothing matches (the message lists what is
            registered); ``AMBIGUOUS_NAME`` when a bare name is provided by several plugins (the
            message names them all).
        """
        by_name = self._by_kind.get(kind, {})
        plugin, sep, bare = name.rpartition("/")
        candidates = by_name.get(bare if sep else name, [])
        if sep:
            candidates = [r for r in candidates if r.provider.plugin == plugin]
        if len(candidates) == 1:
            return candidates[0]
        if not candidates:
            known = ", ".join(sorted(by_name)) or "none"
            raise AssayError(
                ErrorCode.UNKNOWN_NAME,
                f"no {kind} named {name!r} is registered (registered: {known})",
                details={"kind": kind, "name": name},
            )
        providers = "; ".join(
            f"{r.qualified_name} from {r.provider.describe()}" for r in candidates
        )
        raise AssayError(
            ErrorCode.AMBIGUOUS_NAME,
            f"{kind} {name!r} is provided by several plugins ({providers}); use plugin/name",
            details={"kind": kind, "name": name},
        )

    def get(self, kind: str, name: str) -> Any:
        """The object of ``kind`` called ``name``; see :meth:`lookup` for errors."""
        return self.lookup(kind, name).obj

    def has(self, kind: str, name: str) -> bool:
        """Whether :meth:`get` would find exactly one object."""
        try:
            self.lookup(kind, name)
        except AssayError:
            return False
        return True

    def items(self, kind: str | None = None) -> list[Registration]:
        """All registrations (of ``kind``), in registration order within each name."""
        kinds = [kind] if kind else list(self._by_kind)
        return [reg for k in kinds for regs in self._by_kind.get(k, {}).values() for reg in regs]

    def names(self, kind: str) -> list[str]:
        """Bare names registered for ``kind``, in registration order."""
        return list(self._by_kind.get(kind, {}))

    def dimension(self, name: str) -> Any:
        """Shortcut for ``get("dimension", name)``."""
        return self.get("dimension", name)

    def metric(self, name: str) -> Any:
        """Shortcut for ``get("metric", name)``."""
        return self.get("metric", name)

    def perturbation(self, name: str) -> Any:
        """Shortcut for ``get("perturbation", name)``."""
        return self.get("perturbation", name)

    def policy(self, name: str) -> Any:
        """Shortcut for ``get("policy", name)``."""
        return self.get("policy", name)

    def judge(self, name: str) -> Any:
        """Shortcut for ``get("judge", name)``."""
        return self.get("judge", name)

    @property
    def plugins(self) -> list[PluginRecord]:
        """What discovery found about each plugin, in load order."""
        return list(self._plugins)

    def __iter__(self) -> Iterator[Registration]:
        return iter(self.items())

    def __len__(self) -> int:
        return len(self.items())

    def __repr__(self) -> str:
        counts = ", ".join(f"{k}={len(v)}" for k, v in self._by_kind.items())
        return f"<Registry {counts or 'empty'}; {len(self._plugins)} plugins>"


class Registrar:
    """Handed to a plugin's ``assay_register`` hook; records the plugin as provider.

    Registrations are buffered and committed together when the hook returns, so a plugin whose
    hook raises leaves nothing behind.
    """

    def __init__(self, registry: Registry, provider: Provider) -> None:
        self._registry = registry
        self.provider = provider
        self._pending: list[Registration] = []

    def add(self, kind: str, obj: Any, name: str | None = None) -> None:
        """Register ``obj`` as ``kind`` (checked against its protocol for the five known kinds).

        :raises AssayError: ``INVALID_PLUGIN_OBJECT`` or ``DUPLICATE_NAME``.
        """
        registration = self._registry._make_registration(kind, obj, name, self.provider)
        for pending in self._pending:
            if (pending.kind, pending.name) == (kind, registration.name):
                raise AssayError(
                    ErrorCode.DUPLICATE_NAME,
                    f"{kind} {registration.qualified_name!r} registered twice by "
                    f"{self.provider.describe()}",
                )
        self._pending.append(registration)

    def add_dimension(self, obj: Any) -> None:
        """Register a :class:`~assay.Dimension` under its ``name``."""
        self.add("dimension", obj)

    def add_metric(self, obj: Any) -> None:
        """Register a :class:`~assay.Metric` under its ``id``."""
        self.add("metric", obj)

    def add_perturbation(self, obj: Any) -> None:
        """Register a :class:`~assay.Perturbation` under its ``name``."""
        self.add("perturbation", obj)

    def add_policy(self, obj: Any) -> None:
        """Register a :class:`~assay.Policy` under its ``name``."""
        self.add("policy", obj)

    def add_judge(self, obj: Any) -> None:
        """Register a :class:`~assay.Judge` under its ``name``."""
        self.add("judge", obj)

    def commit(self) -> list[Registration]:
        """Commit the buffered registrations (called by the plugin host after the hook)."""
        self._registry._commit(self._pending)
        committed, self._pending = self._pending, []
        return committed
