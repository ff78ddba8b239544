"""Hook implementations: registers the seven metrics compatible with
rag-eval-node-ts 0.3, the ``default`` metric set, and this
plugin's own extra metrics (not in the default set)."""

from __future__ import annotations

import assay
from assay_faithfulness.standalone import DEFAULT_METRIC_IDS, DEFAULT_METRICS, extra_metrics


@assay.hookimpl
def assay_register(registrar: assay.Registrar) -> None:
    for metric in DEFAULT_METRICS:
        registrar.add_metric(metric)
    for metric in extra_metrics():
        registrar.add_metric(metric)
    registrar.add("metric-set", DEFAULT_METRIC_IDS, name="default")
