"""assay-corpus: the system-readiness (Tier 2) dimensions corpus completeness and index
integrity of the confidence scorecard."""

from assay_corpus.corpus import CorpusDimension, coverage_points
from assay_corpus.index_integrity import IndexIntegrityDimension

__all__ = ["CorpusDimension", "IndexIntegrityDimension", "coverage_points"]
