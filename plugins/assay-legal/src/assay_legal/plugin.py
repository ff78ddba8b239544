"""Hook implementations of assay-legal."""

from __future__ import annotations

import assay
from assay_legal.preset import LEGAL_GOVERNANCE, legal_governance_preset


@assay.hookimpl
def assay_register(registrar: assay.Registrar) -> None:
    registrar.add("preset", legal_governance_preset(), name=LEGAL_GOVERNANCE)
