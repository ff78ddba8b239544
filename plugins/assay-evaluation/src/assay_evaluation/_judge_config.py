"""Building a judge from configuration: a registered judge's name, or a registered judge factory
with its settings."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from assay import AssayError, Registry
from assay_evaluation._codes import EvaluationErrorCode as Code
from assay_evaluation._objects import refuse_class

__all__ = ["JUDGE_FACTORY_KIND", "judge_from_config"]

JUDGE_FACTORY_KIND = "judge-factory"
"""Registry kind of judge factories: callables ``(settings: Mapping) -> Judge`` (e.g. the
``openai`` and ``anthropic`` factories of assay-judges)."""


def judge_from_config(spec: Any, registry: Registry, path: str = "judge") -> Any:
    """A judge from ``spec``.

    * a string: the registered judge of that name, else the registered judge factory of that
      name called with no settings;
    * a mapping: ``{"type": <factory name>, ...settings}``; the factory receives the settings
      (e.g. ``model``, ``baseUrl``, ``apiKeyEnv``, ``timeout``, ``retries``);
    * ``None``: no judge.

    ``path`` is the field path used in errors.

    :raises AssayError: ``JUDGE_MISCONFIGURED`` when nothing of that name is registered, the
        spec has the wrong shape, or the factory rejects the settings;
        ``INVALID_PLUGIN_OBJECT`` when the judge found is a class, not an instance.
    """
    if spec is None:
        return None
    if isinstance(spec, str):
        if registry.has("judge", spec):
            judge = registry.get("judge", spec)
            if isinstance(judge, type):
                registered_by = registry.lookup("judge", spec).provider.describe()
                refuse_class(judge, "Judge", path, registered_by)
            return judge
        name, settings = spec, {}
    elif isinstance(spec, Mapping) and isinstance(spec.get("type"), str):
        name = spec["type"]
        settings = {k: v for k, v in spec.items() if k != "type"}
    else:
        raise AssayError(
            Code.JUDGE_MISCONFIGURED,
            'a judge is a name or an object {"type": <factory>, ...settings}',
            path,
        )
    if not registry.has(JUDGE_FACTORY_KIND, name):
        known = sorted({*registry.names("judge"), *registry.names(JUDGE_FACTORY_KIND)})
        raise AssayError(
            Code.JUDGE_MISCONFIGURED,
            f"no judge or judge factory named {name!r} is registered "
            f"(registered: {', '.join(known) or 'none'}; install assay-judges for openai and "
            "anthropic)",
            path,
        )
    judge = registry.get(JUDGE_FACTORY_KIND, name)(settings)
    refuse_class(judge, "Judge", path, f"the judge factory {name!r}")
    return judge
