"""Hook implementation of assay-authority: registers the ``authority`` dimension."""

from __future__ import annotations

import assay
from assay_authority.dimension import AuthorityDimension


@assay.hookimpl
def assay_register(registrar: assay.Registrar) -> None:
    """Register :class:`AuthorityDimension` under the name ``authority``."""
    registrar.add_dimension(AuthorityDimension())
