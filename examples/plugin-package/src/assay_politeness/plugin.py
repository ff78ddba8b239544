"""The plugin's hook module (named by the entry point)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import assay


class Politeness(assay.Dimension):
    """5 points when the answer text (``answerText``) contains "please"."""

    name = "politeness"
    tier = 1
    max_points = 5.0
    default_weight = 5.0
    reads = ("answerText",)  # an input field of its own: declared, so it is not "unknown"

    def score(self, inputs: Mapping[str, Any], config: Mapping[str, Any]) -> assay.DimensionScore:
        points = 5.0 if "please" in str(inputs.get("answerText", "")).lower() else 0.0
        return assay.dimension_score(
            raw=points,
            max_points=self.max_points,
            explanation=f"politeness {points:g} of 5",
            components={"politeness": points},
        )


@assay.hookimpl
def assay_register(registrar: assay.Registrar) -> None:
    registrar.add_dimension(Politeness())
