"""Built-in plugin: the scorecard's default action policy and the seed's presets, registered
through the same hook as any plugin's objects."""

from __future__ import annotations

from typing import TYPE_CHECKING

from assay._hookspecs import hookimpl
from assay._scorecard.policy import ThresholdActionPolicy
from assay._scorecard.presets import builtin_presets

if TYPE_CHECKING:
    from assay._registry import Registrar


@hookimpl
def assay_register(registrar: Registrar) -> None:
    registrar.add_policy(ThresholdActionPolicy())
    for preset in builtin_presets():
        registrar.add("preset", preset, name=preset.name)
