"""The OpenAI-compatible and Anthropic judges against a loopback server speaking each API."""

from __future__ import annotations

import pytest

import assay
from assay_judges import AnthropicJudge, OpenAIJudge, anthropic_judge, openai_judge


def openai_reply(text, prompt_tokens=11, completion_tokens=3):
    return {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "model": "local-model",
        "choices": [
            {"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}
        ],
        "usage": {
            "prompt_tokens": prompt_tokens,
            "completion_tokens": completion_tokens,
            "total_tokens": prompt_tokens + completion_tokens,
        },
    }


def anthropic_reply(text):
    return {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "model": "claude-test",
        "content": [{"type": "text", "text": text}],
        "stop_reason": "end_turn",
        "usage": {"input_tokens": 21, "output_tokens": 4},
    }


def test_openai_judge_speaks_chat_completions(api_server):
    api_server.script = [(200, openai_reply('{"score": 0.8}'), 0)]
    judge = openai_judge(
        {"model": "local-model", "baseUrl": f"{api_server.url}/v1", "apiKey": "sk-test"}, env={}
    )
    reply = judge.complete("Rate this.")
    assert reply == assay.JudgeReply('{"score": 0.8}', 11, 3, "local-model")
    path, headers, body = api_server.requests[0]
    assert path == "/v1/chat/completions"
    assert headers["authorization"] == "Bearer sk-test"
    assert headers["content-type"] == "application/json"
    assert body["model"] == "local-model"
    assert body["messages"] == [{"role": "user", "content": "Rate this."}]
    assert body["temperature"] == 0
    assert judge.name == f"openai:local-model@{api_server.url}/v1"
    assert "sk-test" not in repr(judge)


def test_openai_judge_without_key_sends_no_authorization(api_server):
    api_server.script = [(200, openai_reply("1"), 0)]
    judge = openai_judge({"model": "m"}, env={"OPENAI_BASE_URL": api_server.url})
    assert judge.complete("p").text == "1"
    assert "authorization" not in api_server.requests[0][1]


def test_openai_judge_retries_rate_limits_and_server_errors(api_server):
    api_server.script = [
        (429, {"error": "slow down"}, 0),
        (503, {"error": "busy"}, 0),
        (200, openai_reply("0.5"), 0),
    ]
    waits = []
    judge = OpenAIJudge("m", base_url=api_server.url, retries=2, sleep=waits.append)
    assert judge.complete("p").text == "0.5"
    assert len(api_server.requests) == 3
    assert waits == [0.5, 1.0]


def test_openai_judge_gives_up_with_judge_error(api_server):
    api_server.script = [(500, {"error": "x"}, 0)] * 2
    judge = OpenAIJudge("m", base_url=api_server.url, retries=1, sleep=lambda s: None)
    with pytest.raises(assay.AssayError) as excinfo:
        judge.complete("p")
    assert excinfo.value.code == "JUDGE_ERROR"
    assert "2 attempt(s)" in excinfo.value.message and "HTTP 500" in excinfo.value.message


def test_client_errors_are_not_retried(api_server):
    api_server.script = [(401, {"error": {"message": "bad key"}}, 0)]
    with pytest.raises(assay.AssayError) as excinfo:
        OpenAIJudge("m", base_url=api_server.url, retries=3).complete("p")
    assert len(api_server.requests) == 1
    assert "HTTP 401" in excinfo.value.message and "bad key" in excinfo.value.message


def test_timeouts_are_retried_then_reported(api_server):
    api_server.script = [(200, openai_reply("late"), 0.5), (200, openai_reply("late"), 0.5)]
    judge = OpenAIJudge("m", base_url=api_server.url, timeout=0.1, retries=1, sleep=lambda s: None)
    with pytest.raises(assay.AssayError) as excinfo:
        judge.complete("p")
    assert excinfo.value.code == "JUDGE_ERROR" and "2 attempt(s)" in excinfo.value.message


def test_malformed_responses_are_judge_errors(api_server):
    api_server.script = [(200, {"choices": []}, 0), (200, "not json", 0)]
    judge = OpenAIJudge("m", base_url=api_server.url, retries=0)
    for _ in range(2):
        with pytest.raises(assay.AssayError) as excinfo:
            judge.complete("p")
        assert excinfo.value.code == "JUDGE_ERROR"


def test_anthropic_judge_speaks_messages(api_server):
    api_server.script = [(200, anthropic_reply("yes"), 0)]
    judge = anthropic_judge(
        {"model": "claude-test", "baseUrl": api_server.url, "apiKeyEnv": "MY_KEY", "maxTokens": 50},
        env={"MY_KEY": "k-1"},
    )
    reply = judge.complete("Is it?")
    assert reply == assay.JudgeReply("yes", 21, 4, "claude-test")
    path, headers, body = api_server.requests[0]
    assert path == "/v1/messages"
    assert headers["x-api-key"] == "k-1"
    assert headers["anthropic-version"] == "2023-06-01"
    assert body == {
        "model": "claude-test",
        "max_tokens": 50,
        "temperature": 0.0,
        "messages": [{"role": "user", "content": "Is it?"}],
    }
    assert isinstance(judge, AnthropicJudge) and "k-1" not in repr(judge)


def test_anthropic_overloaded_is_retried(api_server):
    api_server.script = [(529, {"type": "error"}, 0), (200, anthropic_reply("0.3"), 0)]
    waits = []
    judge = AnthropicJudge(
        "c", api_key="k", base_url=api_server.url, retries=1, backoff=2.0, sleep=waits.append
    )
    assert judge.complete("p").text == "0.3"
    assert waits == [2.0]


@pytest.mark.parametrize(
    ("factory", "settings", "env", "path"),
    [
        (openai_judge, {}, {}, "judge.model"),
        (openai_judge, {"model": "m", "baseUrl": "ftp://x"}, {}, "judge.baseUrl"),
        (openai_judge, {"model": "m", "timeout": 0}, {}, "judge.timeout"),
        (openai_judge, {"model": "m", "retries": -1}, {}, "judge.retries"),
        (openai_judge, {"model": "m", "colour": "red"}, {}, "judge.colour"),
        (anthropic_judge, {"model": "c"}, {}, "judge.apiKey"),
    ],
)
def test_misconfiguration_is_reported_with_a_code(factory, settings, env, path):
    with pytest.raises(assay.AssayError) as excinfo:
        factory(settings, env=env)
    assert (excinfo.value.code, excinfo.value.path) == ("JUDGE_MISCONFIGURED", path)


def test_model_can_come_from_the_environment():
    judge = openai_judge({}, env={"ASSAY_JUDGE_MODEL": "env-model"})
    assert judge.model == "env-model" and judge.base_url == "https://api.openai.com/v1"
