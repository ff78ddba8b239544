"""Type stub of the compiled twins built from _speedups.pyx (see grounding.py, relevance.py)."""

from collections.abc import Mapping
from typing import Any

import assay

def grounding_score(
    self: assay.Dimension, inputs: Mapping[str, Any], config: Mapping[str, Any]
) -> assay.DimensionScore: ...
def relevance_score(
    self: assay.Dimension, inputs: Mapping[str, Any], config: Mapping[str, Any]
) -> assay.DimensionScore: ...
