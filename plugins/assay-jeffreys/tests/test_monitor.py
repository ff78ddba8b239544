"""OutputGateMonitor: sealed decisions, online calibration, re-assessed assumptions, drift."""

from __future__ import annotations

import pytest

import assay
from assay_audit import AuditChain, read_chain_file, verify_chain
from assay_jeffreys import HypothesisManager, OutputGateMonitor
from assay_jeffreys.sampling import make_generator


def test_record_seals_every_decision_in_the_chain(history):
    monitor = OutputGateMonitor().fit(history)
    d1 = monitor.record({"factuality": 0.9, "relevance": 0.8}, "2026-01-01T00:00:00Z", {"id": "a"})
    d2 = monitor.record({"factuality": 0.1}, "2026-01-01T00:00:01Z")
    trail = monitor.audit_trail()
    assert [e.payload["decision"]["action"] for e in trail] == [d1.action, d2.action]
    assert trail[0].payload["context"] == {"id": "a"}
    assert trail[0].payload["scores"] == {"factuality": 0.9, "relevance": 0.8}
    assert trail[0].payload["policy"] == {
        "kind": "bayes-factor",
        "passAbove": 10.0,
        "failBelow": 0.1,
    }
    assert trail[1].timestamp == "2026-01-01T00:00:01Z"
    assert verify_chain(trail).valid


def test_a_file_chain_survives_reopening(tmp_path, history):
    path = tmp_path / "decisions.jsonl"
    monitor = OutputGateMonitor(chain=AuditChain(path)).fit(history[:40])
    monitor.record({"factuality": 0.8})
    again = OutputGateMonitor(chain=AuditChain(path)).fit(history[:40])
    again.record({"factuality": 0.2})
    entries = read_chain_file(path)
    assert len(entries) == 2 and verify_chain(entries).valid


def test_record_before_any_dimension_is_known_is_an_invalid_state():
    with pytest.raises(assay.AssayError) as info:
        OutputGateMonitor().record({"factuality": 0.5})
    assert info.value.code == "INVALID_STATE"


def test_observe_updates_the_calibration_online(history):
    monitor = OutputGateMonitor()
    monitor.observe(history[0])
    assert monitor.manager.observation_count("factuality", "high") == 1
    before = monitor.models()
    monitor.observe(history[2])
    assert monitor.models() != before
    assert len(monitor.history) == 2 and monitor.assumptions is None


def test_fit_reassesses_assumptions_and_guards_use_them(history):
    monitor = OutputGateMonitor(require_goodness_of_fit=True, require_independence=True)
    monitor.fit(history)
    assert monitor.assumptions.goodness_of_fit_adequate
    assert monitor.record({"factuality": 0.95, "relevance": 0.9}).action == "pass"
    rng = make_generator(9)
    for x in rng.beta(40, 2, 200).tolist() + rng.beta(2, 40, 200).tolist():
        monitor.observe({"scores": {"factuality": x, "relevance": x}, "label": "high"})
    monitor.fit([])
    assert not monitor.assumptions.independence_assumption_safe
    decision = monitor.record({"factuality": 0.95, "relevance": 0.9})
    assert (decision.action, decision.rationale) == ("escalate", "assumption-violated")
    assert decision.assumptions == monitor.assumptions
    assert monitor.audit_trail()[-1].payload["decision"]["assumptions"]["dependentPairs"] == [
        "factuality~relevance"
    ]


def _stream(monitor: OutputGateMonitor, values: list[float], label: str) -> None:
    for x in values:
        monitor.observe({"scores": {"factuality": x}, "label": label})


def test_drift_fires_on_a_shifted_stream_and_is_sealed():
    rng = make_generator(21)
    monitor = OutputGateMonitor()
    _stream(monitor, rng.beta(8, 2, 300).tolist(), "high")
    assert monitor.drift_alerts == []
    _stream(monitor, rng.beta(3, 5, 100).tolist(), "high")  # high-quality scores drop
    alerts = monitor.drift_alerts
    assert alerts, "a mean shift from 0.8 to 0.375 must be detected"
    first = alerts[0]
    assert (first.dimension, first.stream, first.event["direction"]) == (
        "factuality",
        "high",
        "decrease",
    )
    assert 300 < first.sequence <= 330
    sealed = [e.payload for e in monitor.audit_trail() if e.payload["kind"] == "drift"]
    assert (
        sealed[0]["dimension"] == "factuality"
        and sealed[0]["event"]["detector"] == "scaled_page_hinkley"
    )


def test_drift_stays_quiet_on_stationary_streams():
    rng = make_generator(22)
    monitor = OutputGateMonitor()
    _stream(monitor, rng.beta(8, 2, 2000).tolist(), "high")
    _stream(monitor, rng.beta(2, 6, 2000).tolist(), "low")
    assert monitor.drift_alerts == []
    assert monitor.audit_trail() == []


def test_drift_watch_can_be_switched_off_or_replaced(history):
    assert OutputGateMonitor(drift_detector=None).fit(history).drift_alerts == []
    from assay_calibration.drift import Cusum

    monitor = OutputGateMonitor(
        drift_detector=lambda: Cusum(delta=0.05, threshold=1.0, min_samples=20)
    )
    rng = make_generator(23)
    _stream(monitor, rng.beta(8, 2, 100).tolist() + rng.beta(2, 8, 60).tolist(), "high")
    assert monitor.drift_alerts and monitor.drift_alerts[0].event["detector"] == "cusum"


def test_a_custom_manager_and_policy_are_used(history):
    manager = HypothesisManager(default_weight=2.0)
    monitor = OutputGateMonitor(manager, {"kind": "decision-theoretic"}).fit(history)
    decision = monitor.record({"factuality": 0.5})
    assert decision.rationale == "expected-loss"
    assert monitor.models()[0].weight == 2.0


def test_drift_on_the_recorded_traffic_fires_when_it_shifts_and_not_before(history):
    rng = make_generator(24)
    monitor = OutputGateMonitor().fit(history)
    for x in rng.beta(5, 3, 400).tolist():  # a steady mix of outputs
        monitor.record({"factuality": x})
    assert monitor.drift_alerts == []
    for x in rng.beta(2, 6, 60).tolist():  # the upstream scorer or the traffic changed
        monitor.record({"factuality": x})
    recorded = [a for a in monitor.drift_alerts if a.stream == "recorded"]
    assert recorded and recorded[0].dimension == "factuality"
    assert 400 < recorded[0].sequence <= 430
    kinds = [e.payload["kind"] for e in monitor.audit_trail()]
    assert kinds.count("decision") == 460 and "drift" in kinds


def test_a_monitor_snapshot_resumes_exactly_where_it_left_off(tmp_path, history):
    import json

    rng = make_generator(25)
    original = OutputGateMonitor(
        policy={"kind": "decision-theoretic", "priorHighQuality": 0.4},
        chain=AuditChain(tmp_path / "chain.jsonl"),
        require_independence=True,
    ).fit(history[:300])
    for x in rng.beta(5, 3, 50).tolist():
        original.record({"factuality": x, "relevance": 0.5})
    saved = json.loads(json.dumps(original.snapshot()))
    copy = OutputGateMonitor.from_snapshot(saved, chain=AuditChain(tmp_path / "copy.jsonl"))
    assert copy.models() == original.models()
    assert copy.assumptions == original.assumptions
    later_scores = rng.beta(2, 6, 60).tolist()
    later_labels = history[300:340]
    for monitor in (original, copy):
        for x in later_scores:
            monitor.record({"factuality": x, "relevance": 0.5})
        monitor.fit(later_labels)
    assert copy.drift_alerts == original.drift_alerts and original.drift_alerts
    assert copy.snapshot() == original.snapshot()
    assert copy.record({"factuality": 0.7}) == original.record({"factuality": 0.7})


def test_malformed_monitor_snapshots_raise_invalid_snapshot(history):
    good = OutputGateMonitor().fit(history[:40]).snapshot()
    for broken in (
        None,
        {**good, "policy": {"kind": "vote"}},
        {**good, "history": [{"scores": {"factuality": 2}, "label": "high"}]},
        {
            **good,
            "detectors": [
                {"dimension": "factuality", "stream": "high", "state": {"detector": "x"}}
            ],
        },
        {**good, "alerts": [{"dimension": "factuality"}]},
    ):
        with pytest.raises(assay.AssayError) as info:
            OutputGateMonitor.from_snapshot(broken)
        assert info.value.code == "INVALID_SNAPSHOT"
    monitor = OutputGateMonitor(policy=_ForeignPolicy()).fit(history[:10])
    with pytest.raises(assay.AssayError) as info:
        monitor.snapshot()  # a policy without details() cannot be saved
    assert info.value.code == "INVALID_STATE"


class _ForeignPolicy:
    name = "foreign"
    evidence_type = object

    def decide(self, evidence):
        return assay.Decision("escalate", "foreign", "always")


TWO_OUTPUTS = [
    {"scores": {"factuality": 0.91, "relevance": 0.77}, "label": "high"},
    {"scores": {"factuality": 0.18, "relevance": 0.41}, "label": "low"},
]


def test_one_labeled_output_per_label_is_not_enough_to_decide():
    monitor = OutputGateMonitor(require_goodness_of_fit=True).fit(TWO_OUTPUTS)
    decision = monitor.record({"factuality": 0.91, "relevance": 0.80})
    assert (decision.action, decision.rationale) == ("escalate", "insufficient-history")
    assert (decision.strength, decision.bayes_factor) == ("inconclusive", 1.0)  # capped
    assert not monitor.assumptions.goodness_of_fit_adequate  # nothing could be tested
    sealed = monitor.audit_trail()[-1].payload["decision"]
    assert sealed["rationale"] == "insufficient-history"
    assert sealed["calibration"]["cap"] == 0.0
    # BayesOutputGate's behaviour, kept under the compatible config: a decisive pass
    compatible = OutputGateMonitor(config="compatible").fit(TWO_OUTPUTS)
    old = compatible.record({"factuality": 0.91, "relevance": 0.80})
    assert (old.action, old.strength, round(old.bayes_factor, 2)) == (
        "pass",
        "decisive-high",
        179.44,
    )
    assert compatible.assumptions.goodness_of_fit_adequate


def test_the_monitor_decides_once_the_history_reaches_the_minimum(history):
    monitor = OutputGateMonitor().fit(history[:58])  # 29 of each
    assert monitor.record({"factuality": 0.95, "relevance": 0.9}).rationale == (
        "insufficient-history"
    )
    monitor.observe(history[58]).observe(history[59])  # 30 of each: refit on the next record
    decision = monitor.record({"factuality": 0.95, "relevance": 0.9})
    assert (decision.action, decision.rationale) == ("pass", "bayes-factor")
    assert monitor.gate is not None and monitor.gate.history_counts == {"high": 30, "low": 30}


def test_a_snapshot_keeps_the_gate_config_and_an_old_one_resumes_compatible(history):
    import json

    monitor = OutputGateMonitor(config={"minHistory": 10, "scoreModel": "empirical"}).fit(
        history[:40]
    )
    saved = json.loads(json.dumps(monitor.snapshot()))
    assert saved["config"]["minHistory"] == 10
    copy = OutputGateMonitor.from_snapshot(saved)
    assert copy.config == monitor.config
    assert copy.record({"factuality": 0.6}) == monitor.record({"factuality": 0.6})
    del saved["config"]  # a snapshot written before the gate had a config
    old = OutputGateMonitor.from_snapshot(saved)
    assert old.config.is_compatible and old.gate is None
