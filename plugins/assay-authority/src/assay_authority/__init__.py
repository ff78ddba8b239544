"""assay-authority: the source authority dimension of the confidence scorecard."""

from assay_authority.dimension import DEFAULT_TIERS, AuthorityDimension, rank_points

__all__ = ["DEFAULT_TIERS", "AuthorityDimension", "rank_points"]
