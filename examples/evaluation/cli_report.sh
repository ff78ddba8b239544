#!/bin/sh
# `assay eval` as a CI step: summary table, HTML report, baseline, exit codes.
#
# Prints:
#   * the summary table of the seven metrics (--profile compatible) over data/rag_answers.jsonl
#     and "exit code 1" (at the default thresholds every sample fails at least one metric);
#   * "exit code 0" for a run with lenient thresholds that also saves a baseline;
#   * "exit code 0" and the faithfulness regression line (no drop) for a run compared with that
#     baseline;
#   * "report: <n> inline SVG plots" for the self-contained HTML report.
#
# Run from the repository root: uv run --all-packages sh examples/evaluation/cli_report.sh
# (needs the assay-evaluation and assay-faithfulness plugins installed; with ASSAY_PLUGINS set,
# it must name both: evaluation,faithfulness).
set -u
here=$(dirname "$0")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

assay eval "$here/data/rag_answers.jsonl" --profile compatible --html "$work/report.html"
echo "exit code $?"

lenient="--profile compatible
  --threshold faithfulness=0 --threshold answer_relevance=0 --threshold context_precision=0
  --threshold context_recall=0 --threshold context_relevance=0 --threshold answer_correctness=0
  --threshold hallucination_rate=0 --composite-threshold 0.2"
# shellcheck disable=SC2086
assay eval "$here/data/rag_answers.jsonl" $lenient --save-baseline "$work/baseline.json" > /dev/null
echo "exit code $?"
# shellcheck disable=SC2086
assay eval "$here/data/rag_answers.jsonl" $lenient --baseline "$work/baseline.json" > "$work/compared.txt"
echo "exit code $?"
grep "^regression faithfulness" "$work/compared.txt"
echo "report: $(grep -o '<svg' "$work/report.html" | wc -l | tr -d ' ') inline SVG plots"
