"""Hook implementations of the example plugin."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import assay


class Shout(assay.Dimension):
    """A toy Dimension: full points when the answer's support level is ``"high"``."""

    name = "shout"
    tier = 1
    max_points = 5.0
    default_weight = 5.0

    def score(self, inputs: Mapping[str, Any], config: Mapping[str, Any]) -> assay.DimensionScore:
        raw = 5.0 if inputs.get("supportLevel") == "high" else 0.0
        return assay.dimension_score(
            raw=raw,
            max_points=self.max_points,
            explanation="support level is high" if raw else "support level is not high",
            components={"highSupport": raw},
        )


@assay.hookimpl
def assay_register(registrar: assay.Registrar) -> None:
    registrar.add_dimension(Shout())
