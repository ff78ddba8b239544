"""Built-in plugin: the scorecard's default action policy (registered like any plugin's)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from assay._hookspecs import hookimpl

if TYPE_CHECKING:
    from assay._registry import Registrar


@hookimpl
def assay_register(registrar: Registrar) -> None:
    try:
        from assay._scorecard.policy import ThresholdActionPolicy
    except ImportError:  # pragma: no cover - lands with the scorecard engine
        return
    registrar.add_policy(ThresholdActionPolicy())
