"""Hook implementation of assay-freshness: registers the ``freshness`` dimension."""

from __future__ import annotations

import assay
from assay_freshness.dimension import FreshnessDimension


@assay.hookimpl
def assay_register(registrar: assay.Registrar) -> None:
    """Register :class:`FreshnessDimension` (no clock: configs must give ``freshness.now``)."""
    registrar.add_dimension(FreshnessDimension())
