"""One metric computation's conversation with a judge: the disk cache keyed by a hash of
(judge name, prompt), and the call, token, cache-hit and parse-failure counts."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import assay
from assay.cli import atomic_write

__all__ = ["JudgeSession", "cache_key"]


def cache_key(judge_name: str, prompt: str, repeat: int = 0) -> str:
    """SHA-256 of the judge's name and the prompt (and the repeat index from the second repeat
    on, so that ``repeats=N`` asks N times instead of reading one answer N times)."""
    material = f"{judge_name}\0{prompt}" + (f"\0repeat={repeat}" if repeat else "")
    return hashlib.sha256(material.encode("utf-8")).hexdigest()


class JudgeSession:
    """Asks ``judge`` through an optional disk cache and counts what it cost.

    :param judge: a :class:`assay.Judge`.
    :param cache_dir: folder of cached replies (one small JSON file per key), or ``None``.
    """

    def __init__(self, judge: Any, cache_dir: str | None = None) -> None:
        self.judge = judge
        self.cache_dir = Path(cache_dir) if cache_dir else None
        self.llm_calls = 0
        self.input_tokens = 0
        self.output_tokens = 0
        self.cache_hits = 0
        self.parse_failures = 0

    def ask(self, prompt: str, repeat: int = 0) -> str:
        """The judge's reply text, from the cache when it holds one.

        :raises assay.AssayError: whatever the judge raises (``JUDGE_ERROR``).
        """
        path = None
        if self.cache_dir is not None:
            key = cache_key(self.judge.name, prompt, repeat)
            path = self.cache_dir / key[:2] / f"{key}.json"
            if path.is_file():
                self.cache_hits += 1
                return str(json.loads(path.read_text(encoding="utf-8"))["text"])
        reply: assay.JudgeReply = self.judge.complete(prompt)
        self.llm_calls += 1
        self.input_tokens += reply.prompt_tokens or 0
        self.output_tokens += reply.completion_tokens or 0
        if path is not None:
            with atomic_write(path) as handle:
                json.dump({"judge": self.judge.name, "text": reply.text}, handle)
        return reply.text

    def cost(self) -> dict[str, int]:
        """The counts in the ``details["cost"]`` shape the runner sums."""
        return {
            "llmCalls": self.llm_calls,
            "inputTokens": self.input_tokens,
            "outputTokens": self.output_tokens,
            "parseFailures": self.parse_failures,
            "cacheHits": self.cache_hits,
        }
