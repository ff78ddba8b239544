"""Quality alerts: the specification's batch check and the streaming monitor with change points.

Run: uv run --all-packages python examples/route/quality_alerts.py

Reads quality_scores.jsonl beside this file: 180 composite scores, the first 120 around 0.78
(the baseline) and the last 60 around 0.58 after a bad index rebuild. Prints:
  * "batch, last 50 scores:" the specification's check on the last 50 scores (a degradation warning);
  * "stream:" the monitor's alerts as JSON lines, ready for a log pipeline: a Page-Hinkley
    change point a few scores after the drop, then the window degradation alert.
"""

from __future__ import annotations

import json
from pathlib import Path

from assay_crag.alerts import QualityMonitor, check_quality_alerts

HERE = Path(__file__).resolve().parent


def main() -> None:
    lines = (HERE / "quality_scores.jsonl").read_text("utf-8").splitlines()
    scores = [json.loads(line)["overall"] for line in lines if line.strip()]
    print("batch, last 50 scores:")
    for alert in check_quality_alerts(scores[-50:], baseline_avg=0.78):
        print(f"  {alert.severity}: {alert.message}")
    print("stream:")
    monitor = QualityMonitor(baseline=0.78, window=30)
    for alert in monitor.observe_many(scores):
        print(json.dumps(alert.to_dict()))


if __name__ == "__main__":
    main()
