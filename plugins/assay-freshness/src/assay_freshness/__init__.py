"""assay-freshness: the document freshness dimension of the confidence scorecard."""

from assay_freshness.dimension import DEFAULTS, FreshnessDimension, select_age

__all__ = ["DEFAULTS", "FreshnessDimension", "select_age"]
