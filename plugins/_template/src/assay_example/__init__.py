"""assay-example: a scaffold plugin providing one toy Dimension."""

from assay_example.plugin import Shout

__all__ = ["Shout"]
