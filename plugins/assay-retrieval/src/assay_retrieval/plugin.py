"""Hook implementations of assay-retrieval."""

from __future__ import annotations

import assay
from assay_retrieval.consistency import EvidenceConsistency
from assay_retrieval.retrieval import RetrievalConfidence


@assay.hookimpl
def assay_register(registrar: assay.Registrar) -> None:
    registrar.add_dimension(RetrievalConfidence())
    registrar.add_dimension(EvidenceConsistency())
