"""Checks on the protocol objects the runner is given (metrics, judges)."""

from __future__ import annotations

from typing import Any

from assay import AssayError, ErrorCode

__all__ = ["refuse_class"]


def refuse_class(obj: Any, kind: str, path: str, registered_by: str | None = None) -> None:
    """Refuse a class where an instance of a protocol is expected (its ``compute`` or
    ``complete`` would be an unbound function).

    :raises AssayError: ``INVALID_PLUGIN_OBJECT`` naming the class (and who registered it).
    """
    if isinstance(obj, type):
        where = f" (registered by {registered_by})" if registered_by else ""
        raise AssayError(
            ErrorCode.INVALID_PLUGIN_OBJECT,
            f"{obj.__module__}.{obj.__qualname__}{where} is a class, not a {kind}: register or "
            f"pass an instance ({obj.__qualname__}())",
            path,
        )
