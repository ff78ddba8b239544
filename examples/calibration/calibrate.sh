#!/usr/bin/env bash
# The `assay calibrate` command on the example history (history.jsonl beside this script).
#
# Prints the text report: 400 records, 231 positive (57.8%); a table of the four default score
# bands with counts and positive rates; outcomes per recommended action; "recommended policy:
# answer at >= 85, review at >= 65, abstain below 65" (target recall 0.7); the totals read as
# probabilities (Brier 0.1826, ECE 0.1041); the low-calibration-sample-size warning (the [0, 40)
# band has 28 records, fewer than 30); then "wrote <page>".
# Writes a self-contained HTML page (band chart and reliability diagram inline) to the path
# given as first argument (default: calibration-report.html in the current folder).
# Run: uv run --all-packages bash examples/calibration/calibrate.sh [PAGE.html]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
assay calibrate "$here/history.jsonl" \
  --target-recall 0.7 \
  --min-samples-per-band 30 \
  --html "${1:-calibration-report.html}"
