"""A judge speaking the OpenAI chat-completions API (OpenAI, and local servers that copy it:
llama.cpp, vLLM, Ollama)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

import assay
from assay_evaluation import EvaluationErrorCode as Code
from assay_judges.http import HttpJudgeBase, reply_fields
from assay_judges.settings import read_settings

__all__ = ["OpenAIJudge", "openai_judge"]


@attrs.frozen
class OpenAIJudge(HttpJudgeBase):
    """POSTs ``{base_url}/chat/completions`` with one user message.

    Attributes:
        model: the model name sent in the request.
        base_url: e.g. ``https://api.openai.com/v1`` or ``http://localhost:8080/v1``.
        api_key: sent as ``Authorization: Bearer``; ``None`` for servers that need none.
        (and the transport settings of :class:`~assay_judges.http.HttpJudgeBase`)
    """

    model: str
    base_url: str = "https://api.openai.com/v1"
    api_key: str | None = attrs.field(default=None, repr=False)

    @property
    def name(self) -> str:
        """``openai:<model>@<base_url>``."""
        return f"openai:{self.model}@{self.base_url}"

    def complete(self, prompt: str) -> assay.JudgeReply:
        """The first choice's message content, with token usage when reported.

        :raises assay.AssayError: ``JUDGE_ERROR`` on transport failure or a response without
            ``choices[0].message.content``.
        """
        headers = {"authorization": f"Bearer {self.api_key}"} if self.api_key else {}
        body = {
            "model": self.model,
            "messages": [{"role": "user", "content": prompt}],
            "temperature": self.temperature,
            "max_tokens": self.max_tokens,
        }
        url = f"{self.base_url}/chat/completions"
        response = self.post(url, body, headers)
        try:
            text = response["choices"][0]["message"]["content"]
            if not isinstance(text, str):
                raise TypeError("content is not a string")
        except (KeyError, IndexError, TypeError) as exc:
            raise assay.AssayError(
                Code.JUDGE_ERROR,
                f"{url} answered without choices[0].message.content",
                details={"reason": "bad-shape"},
            ) from exc
        prompt_tokens, completion_tokens, model = reply_fields(
            response, "prompt_tokens", "completion_tokens"
        )
        return assay.JudgeReply(
            text, prompt_tokens=prompt_tokens, completion_tokens=completion_tokens, model=model
        )


def openai_judge(settings: Mapping[str, Any], env: Mapping[str, str] | None = None) -> OpenAIJudge:
    """Judge factory ``openai``: settings ``model``, ``baseUrl`` (else ``OPENAI_BASE_URL``),
    ``apiKey`` / ``apiKeyEnv`` (else ``OPENAI_API_KEY``; optional), ``timeout``, ``retries``,
    ``maxTokens``, ``temperature``.

    :raises assay.AssayError: ``JUDGE_MISCONFIGURED`` as
        :func:`assay_judges.settings.read_settings`.
    """
    return OpenAIJudge(
        **read_settings(
            settings,
            provider="openai",
            default_base_url="https://api.openai.com/v1",
            key_env="OPENAI_API_KEY",
            base_url_env="OPENAI_BASE_URL",
            key_required=False,
            env=env,
        )
    )
