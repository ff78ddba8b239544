"""assay-grounding: the answer grounding and answer relevance dimensions of the confidence scorecard."""

from assay_grounding.grounding import Grounding
from assay_grounding.relevance import AnswerRelevance

__all__ = ["AnswerRelevance", "Grounding"]
