"""assay-pytest: RAG evaluation gates as ordinary pytest tests.

The ``assay_gate`` fixture evaluates samples with :mod:`assay_evaluation`; its assertions fail
with one readable line per failing metric (and its worst samples), and compare with a baseline
file checked into the repository (``--assay-update-baseline`` rewrites it).
"""

from assay_pytest.gate import EvalGate, GateFailure, failure_report, load_samples

__all__ = ["EvalGate", "GateFailure", "failure_report", "load_samples"]
