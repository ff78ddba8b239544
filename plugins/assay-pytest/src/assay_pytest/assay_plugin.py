"""assay hook module (entry point group ``assay``): makes the installed pytest gate visible in
``assay plugins`` and available from a registry as kind ``ci-gate``, name ``pytest``."""

from __future__ import annotations

import assay
from assay_pytest.gate import EvalGate


@assay.hookimpl
def assay_register(registrar: assay.Registrar) -> None:
    registrar.add("ci-gate", EvalGate, name="pytest")
