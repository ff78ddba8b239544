"""A judge speaking Anthropic's messages API."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

import assay
from assay_evaluation import EvaluationErrorCode as Code
from assay_judges.http import HttpJudgeBase, reply_fields
from assay_judges.settings import read_settings

__all__ = ["ANTHROPIC_VERSION", "AnthropicJudge", "anthropic_judge"]

ANTHROPIC_VERSION = "2023-06-01"
"""The ``anthropic-version`` header sent with every request."""


@attrs.frozen
class AnthropicJudge(HttpJudgeBase):
    """POSTs ``{base_url}/v1/messages`` with one user message.

    Attributes:
        model: the model name sent in the request.
        base_url: ``https://api.anthropic.com`` or a compatible proxy.
        api_key: sent as ``x-api-key``.
        (and the transport settings of :class:`~assay_judges.http.HttpJudgeBase`)
    """

    model: str
    api_key: str = attrs.field(repr=False)
    base_url: str = "https://api.anthropic.com"

    @property
    def name(self) -> str:
        """``anthropic:<model>@<base_url>``."""
        return f"anthropic:{self.model}@{self.base_url}"

    def complete(self, prompt: str) -> assay.JudgeReply:
        """The concatenated text blocks of the reply, with token usage.

        :raises assay.AssayError: ``JUDGE_ERROR`` on transport failure or a response without
            text content.
        """
        headers = {"x-api-key": self.api_key, "anthropic-version": ANTHROPIC_VERSION}
        body = {
            "model": self.model,
            "max_tokens": self.max_tokens,
            "temperature": self.temperature,
            "messages": [{"role": "user", "content": prompt}],
        }
        url = f"{self.base_url}/v1/messages"
        response = self.post(url, body, headers)
        try:
            blocks = [b["text"] for b in response["content"] if b.get("type") == "text"]
            if not all(isinstance(block, str) for block in blocks):
                raise TypeError("a text block is not a string")
        except (KeyError, TypeError, AttributeError) as exc:
            raise assay.AssayError(
                Code.JUDGE_ERROR, f"{url} answered without content", details={"reason": "bad-shape"}
            ) from exc
        if not blocks:
            raise assay.AssayError(
                Code.JUDGE_ERROR,
                f"{url} answered without a text block",
                details={"reason": "bad-shape"},
            )
        prompt_tokens, completion_tokens, model = reply_fields(
            response, "input_tokens", "output_tokens"
        )
        return assay.JudgeReply(
            "".join(blocks),
            prompt_tokens=prompt_tokens,
            completion_tokens=completion_tokens,
            model=model,
        )


def anthropic_judge(
    settings: Mapping[str, Any], env: Mapping[str, str] | None = None
) -> AnthropicJudge:
    """Judge factory ``anthropic``: settings ``model``, ``baseUrl`` (else
    ``ANTHROPIC_BASE_URL``), ``apiKey`` / ``apiKeyEnv`` (else ``ANTHROPIC_API_KEY``; required),
    ``timeout``, ``retries``, ``maxTokens``, ``temperature``.

    :raises assay.AssayError: ``JUDGE_MISCONFIGURED`` as
        :func:`assay_judges.settings.read_settings`, including a missing key.
    """
    return AnthropicJudge(
        **read_settings(
            settings,
            provider="anthropic",
            default_base_url="https://api.anthropic.com",
            key_env="ANTHROPIC_API_KEY",
            base_url_env="ANTHROPIC_BASE_URL",
            key_required=True,
            env=env,
        )
    )
