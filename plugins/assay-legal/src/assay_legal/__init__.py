"""assay-legal: the ``legal-governance-v1`` scorecard preset (a domain-preset example)."""

from assay_legal.preset import LEGAL_GOVERNANCE, legal_governance_preset

__all__ = ["LEGAL_GOVERNANCE", "legal_governance_preset"]
