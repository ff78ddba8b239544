"""A toy signal reader and a toy grounding dimension, for the answer-first tests of this plugin
(no other plugin needed)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import assay
import assay_scorecard
import assay_scorecard.plugin
from assay_scorecard import (
    AnswerRecord,
    ClaimFinding,
    SignalReading,
    TextEvidence,
    UnsupportedFinding,
)


class SentenceReader:
    """Every sentence of the answer is a claim, supported when a context contains it (case
    folded); an unsupported claim's first word is reported as an unsupported ``term``."""

    name = "sentences"

    def read(self, record: AnswerRecord) -> SignalReading:
        claims = []
        for sentence in (s.strip() for s in record.answer.split(".")):
            if not sentence:
                continue
            found = next(
                (i for i, text in enumerate(record.texts) if sentence.lower() in text.lower()),
                None,
            )
            if found is None:
                word = sentence.split()[0]
                claims.append(
                    ClaimFinding(
                        sentence,
                        False,
                        0.0,
                        record.texts[0] if record.texts else None,
                        record.contexts[0].label(0) if record.contexts else None,
                        [UnsupportedFinding("term", word, f"no context says {sentence!r}")],
                    )
                )
            else:
                claims.append(
                    ClaimFinding(sentence, True, 1.0, sentence, record.contexts[found].label(found))
                )
        supported = sum(claim.supported for claim in claims)
        score = supported / len(claims) if claims else None
        inputs: dict[str, Any] = {
            "supportLevel": "high" if score == 1 else "medium" if score and score >= 0.5 else "low",
            "hasConflict": False,
        }
        if claims:
            inputs["claimSupport"] = {"totalClaims": len(claims), "supportedClaims": supported}
        evidence = TextEvidence(
            self.name, score, f"{supported} of {len(claims)} sentences found", claims
        )
        return SignalReading(inputs, evidence)


class ToyGrounding(assay.Dimension):
    """Points by ``supportLevel`` (high 30, medium 13, otherwise 5), out of 30."""

    name = "grounding"
    tier = 1
    max_points = 30.0
    default_weight = 30.0

    def score(self, inputs: Mapping[str, Any], config: Mapping[str, Any]) -> assay.DimensionScore:
        raw = {"high": 30.0, "medium": 13.0}.get(inputs.get("supportLevel"), 5.0)  # type: ignore[arg-type]
        return assay.dimension_score(
            raw=raw, max_points=self.max_points, explanation=f"support {inputs['supportLevel']}"
        )


def toy_registry() -> assay.Registry:
    """This plugin, the toy reader and the toy grounding dimension."""
    registry = assay.build_registry(
        load_entry_points=False, extra_plugins={"scorecard": assay_scorecard.plugin}
    )
    assay_scorecard.register_reader(SentenceReader(), registry)
    registry.register(ToyGrounding())
    return registry


def register_toys() -> None:
    """Register the toys in the default registry (the caller resets it afterwards)."""
    assay_scorecard.register_reader(SentenceReader())
    assay.register(ToyGrounding())


SUPPORTED = {
    "question": "Where is the Oberoi Group's head office?",
    "answer": "The head office is in Delhi.",
    "contexts": [
        {"id": "oberoi", "text": "The head office is in Delhi. It runs hotels.", "score": 0.9}
    ],
}
UNSUPPORTED = {
    "question": "Where is the Oberoi Group's head office?",
    "answer": "The head office is in Mumbai. It runs hotels.",
    "contexts": ["The head office is in Delhi. It runs hotels."],
}
