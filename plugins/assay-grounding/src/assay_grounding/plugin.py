"""Hook implementations of assay-grounding."""

from __future__ import annotations

import assay
from assay_grounding.grounding import Grounding
from assay_grounding.relevance import AnswerRelevance


@assay.hookimpl
def assay_register(registrar: assay.Registrar) -> None:
    registrar.add_dimension(Grounding())
    registrar.add_dimension(AnswerRelevance())
