"""assay-retrieval: the retrieval confidence and evidence consistency dimensions of the confidence scorecard."""

from assay_retrieval.consistency import EvidenceConsistency
from assay_retrieval.retrieval import RetrievalConfidence, RetrievalSettings

__all__ = ["EvidenceConsistency", "RetrievalConfidence", "RetrievalSettings"]
