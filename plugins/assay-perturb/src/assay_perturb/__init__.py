"""assay-perturb: robustness testing of a RAG pipeline run as a command.

Public API: the perturbations (:class:`Reorder`, :class:`Pad`, :class:`Swap`), the distance
functions, the case parser, the configuration loader and :func:`run_check`. The modules
``assay_perturb.cases``, ``config``, ``check``, ``scoring``, ``report_text`` and ``report_html``
are public too. PyYAML is imported only when a configuration is read.
"""

from assay_perturb.cases import format_case, load_cases, parse_case
from assay_perturb.check import run_check
from assay_perturb.config import PerturbConfig, config_from_mapping, load_config
from assay_perturb.distances import (
    enum_distance,
    exact_distance,
    numeric_distance,
    string_distance,
)
from assay_perturb.perturbations import Pad, Reorder, Swap
from assay_perturb.scoring import CaseResult, Outcome, RunResult

__all__ = [
    "CaseResult",
    "Outcome",
    "Pad",
    "PerturbConfig",
    "Reorder",
    "RunResult",
    "Swap",
    "config_from_mapping",
    "enum_distance",
    "exact_distance",
    "format_case",
    "load_cases",
    "load_config",
    "numeric_distance",
    "parse_case",
    "run_check",
    "string_distance",
]
