"""The pytest plugin (entry point ``pytest11``): the ``assay_gate`` fixture and the
``--assay-update-baseline`` option."""

from __future__ import annotations

import pytest

from assay_pytest.gate import EvalGate


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("assay", "assay evaluation gates")
    group.addoption(
        "--assay-update-baseline",
        action="store_true",
        default=False,
        help="Write assay baseline files instead of comparing against them.",
    )


@pytest.fixture
def assay_gate(request: pytest.FixtureRequest) -> EvalGate:
    """An :class:`~assay_pytest.EvalGate`: ``evaluate`` samples, then ``assert_passes`` and
    ``assert_no_regression`` against a baseline file."""
    return EvalGate(update_baselines=request.config.getoption("--assay-update-baseline"))
