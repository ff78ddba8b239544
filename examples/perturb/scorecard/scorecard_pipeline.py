"""A pipeline whose decision is assay's own scorecard: robustness of the trust decision itself.

Reads one variant as JSON (standard input, or the file named by $ASSAY_PERTURB_INPUT). Each
chunk is a retrieved passage whose text starts with its retrieval signals in brackets:

    [semantic 0.88 | keyword 0.72 | supports] Annual plans can be refunded within 30 days.

(a passage without brackets, such as padding, counts as semantic 0.05, keyword 0.0, neutral).
The passages become scorecard candidates in retrieval-score order, as a retriever ranks them;
"supports" / "contradicts" marks set the support level, citation count and conflict flag. The
scorecard request {"inputs": ..., "config": {}} is written to a temporary file and scored by
`assay score FILE --json` (run without a shell); its JSON is printed unchanged, so the decision
field is `recommendedAction` (answer / review / abstain).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

SIGNALS = re.compile(r"^\[(?P<tags>[^\]]*)\]")


def candidate(chunk: dict[str, str]) -> tuple[dict[str, object], str]:
    match = SIGNALS.match(chunk["text"])
    tags = [t.strip() for t in match.group("tags").split("|")] if match else []
    scores = {"semantic": 0.05, "keyword": 0.0}
    stance = "neutral"
    for tag in tags:
        name, _, value = tag.partition(" ")
        if name in scores:
            scores[name] = float(value)
        elif name in ("supports", "contradicts"):
            stance = name
    record = {
        "documentId": chunk["id"],
        "retrievalScores": scores,
        "combinedScore": scores["semantic"],
    }
    return record, stance


def scorecard_request(chunks: list[dict[str, str]]) -> dict[str, object]:
    pairs = [candidate(c) for c in chunks]
    pairs.sort(key=lambda p: (-float(p[0]["combinedScore"]), str(p[0]["documentId"])))
    supporting = sum(stance == "supports" for _, stance in pairs)
    contradicting = sum(stance == "contradicts" for _, stance in pairs)
    level = "high" if supporting >= 2 else "medium" if supporting == 1 else "low"
    return {
        "inputs": {
            "supportLevel": level,
            "citationCount": supporting,
            "hasConflict": supporting > 0 and contradicting > 0,
            "documentsSilent": supporting == 0 and contradicting == 0,
            "candidates": [record for record, _ in pairs],
        },
        "config": {},
    }


def main() -> int:
    path = os.environ.get("ASSAY_PERTURB_INPUT")
    with open(path, encoding="utf-8") if path else sys.stdin as handle:
        variant = json.load(handle)
    request = scorecard_request(variant["chunks"])
    assay = shutil.which("assay") or str(Path(sys.executable).parent / "assay")
    with tempfile.TemporaryDirectory(prefix="scorecard-") as tmp:
        file = Path(tmp) / "request.json"
        file.write_text(json.dumps(request), encoding="utf-8")
        done = subprocess.run([assay, "score", str(file), "--json"], capture_output=True, text=True)
    sys.stderr.write(done.stderr)
    sys.stdout.write(done.stdout)
    return done.returncode


if __name__ == "__main__":
    sys.exit(main())
