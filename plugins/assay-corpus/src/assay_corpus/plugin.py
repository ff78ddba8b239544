"""Hook implementation of assay-corpus: registers ``corpus`` and ``indexIntegrity``."""

from __future__ import annotations

import assay
from assay_corpus.corpus import CorpusDimension
from assay_corpus.index_integrity import IndexIntegrityDimension


@assay.hookimpl
def assay_register(registrar: assay.Registrar) -> None:
    """Register :class:`CorpusDimension` and :class:`IndexIntegrityDimension`."""
    registrar.add_dimension(CorpusDimension())
    registrar.add_dimension(IndexIntegrityDimension())
