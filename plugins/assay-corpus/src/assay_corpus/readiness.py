"""What the two system-readiness dimensions of this plugin have in common."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import assay

__all__ = ["ReadinessDimension"]


class ReadinessDimension(assay.Dimension):
    """A Tier 2 (System Readiness) extension dimension worth 15 points, weighted 15 by default,
    taking part in a scorecard when the config holds its section (``{}`` suffices).

    Subclasses set ``name`` (the wire name, also the config key) and ``check_order``.
    """

    name: str
    check_order: int
    tier = 2
    max_points = 15.0
    default_weight = 15.0
    extension = True

    config_activated = True  # is_active reads the config only: asked once per scorer

    def is_active(self, inputs: Mapping[str, Any], config: Mapping[str, Any]) -> bool:
        """Active when the config key named like the dimension is present."""
        return self.name in config
