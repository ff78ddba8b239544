"""The monitored gate: every decision sealed in an audit chain, labeled outcomes folded back
into the calibration, assumptions re-assessed on each fit, drift watched per dimension on the
labeled scores of each hypothesis and on the recorded traffic.

By default the monitor decides with a gate fitted on its labeled history
(:func:`~assay_jeffreys.fit_gate`, refitted after new observations); with
``config=GateConfig.compatible()`` it decides as BayesOutputGate does, with the online Beta
models of its :class:`HypothesisManager`."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

import attrs

from assay import AssayError
from assay_audit import AuditChain, AuditEntry
from assay_jeffreys.diagnostics import (
    DEFAULT_DEPENDENCE_THRESHOLD,
    assess_assumptions,
)
from assay_jeffreys.errors import INVALID_SNAPSHOT, INVALID_STATE, fail
from assay_jeffreys.gate import evaluate
from assay_jeffreys.gateconfig import GateConfig, gate_config_from_wire
from assay_jeffreys.gatefit import FittedGate, fit_gate
from assay_jeffreys.hypothesis import HypothesisManager
from assay_jeffreys.policies import resolve_policy
from assay_jeffreys.scores import observation_from_wire, observations_from_wire, to_score_map
from assay_jeffreys.types import (
    AssumptionReport,
    DimensionModel,
    GateDecision,
    GateGuards,
    LabeledObservation,
    as_dict,
)
from assay_jeffreys.wire import to_wire

__all__ = ["DriftAlert", "OutputGateMonitor", "default_drift_detector"]


def default_drift_detector() -> Any:
    """A :class:`~assay_jeffreys.drift.ScaledPageHinkley` with its defaults: level and
    standard deviation learned on the first 30 values (at least 0.05), then a Page–Hinkley
    test with allowance 0.5 and threshold 10 standard deviations on values clipped to 2
    standard deviations of that level, so a stationary stream stays quiet whatever its spread.
    """
    from assay_jeffreys.drift import ScaledPageHinkley

    return ScaledPageHinkley()


@attrs.frozen
class DriftAlert:
    """A change detected in one dimension's score stream.

    Attributes:
        dimension: the dimension whose scores moved.
        stream: ``"high"`` or ``"low"`` for the labeled scores of that hypothesis (the
            calibration data), ``"recorded"`` for the scores of every decided output (the
            traffic, labeled or not).
        sequence: how many items of that kind the monitor had seen when it fired (labeled
            observations for ``"high"`` / ``"low"``, recorded decisions for ``"recorded"``).
        event: the detector's :class:`assay_calibration.drift.DriftEvent` as a JSON dict
            (``detector``, ``index`` within the stream, ``statistic``, ``threshold``,
            ``direction``, ``meanBefore``).
    """

    dimension: str
    stream: str
    sequence: int
    event: Mapping[str, Any] = attrs.field(converter=as_dict)


class OutputGateMonitor:
    """A gate that learns: :meth:`record` decides and seals, :meth:`observe` / :meth:`fit`
    calibrate, drift and assumptions are watched.

    :param manager: the hypothesis manager to calibrate (default: a new one with the default
        priors).
    :param policy: a policy object or config (default: Bayes-factor 10 / 0.1).
    :param chain: where decisions and drift alerts are sealed (default: an in-memory chain;
        pass ``AuditChain(path)`` for a durable file).
    :param require_goodness_of_fit: escalate while the last fit's report says a Beta fit is
        inadequate.
    :param require_independence: escalate while the last fit's report flags dependent
        dimensions.
    :param drift_detector: a factory of detectors with ``update(x) -> event | None``: one runs
        on each dimension's labeled scores per hypothesis and one on each dimension's recorded
        scores; ``None`` to watch no drift.
    :param alpha: significance level of the goodness-of-fit test (default: the config's, 0.05).
    :param dependence_threshold: correlation at or above which a pair is dependent.
    :param config: how the deciding gate is fitted on the labeled history (a
        :class:`GateConfig`, its JSON object or ``"compatible"``; default the calibrated gate,
        which escalates with rationale ``"insufficient-history"`` until each hypothesis has
        :data:`~assay_jeffreys.gateconfig.MIN_HISTORY` labeled outputs).
    """

    def __init__(
        self,
        manager: HypothesisManager | None = None,
        policy: Any = None,
        chain: AuditChain | None = None,
        *,
        require_goodness_of_fit: bool = False,
        require_independence: bool = False,
        drift_detector: Callable[[], Any] | None = default_drift_detector,
        alpha: float | None = None,
        dependence_threshold: float = DEFAULT_DEPENDENCE_THRESHOLD,
        config: GateConfig | Mapping[str, Any] | str | None = None,
    ) -> None:
        from assay_jeffreys.policies import BayesFactorPolicy

        self.config = gate_config_from_wire(config)
        if alpha is not None:
            self.config = attrs.evolve(self.config, alpha=alpha)
        self._gate: FittedGate | None = None
        self.manager = manager or HypothesisManager()
        self.policy = resolve_policy(policy if policy is not None else BayesFactorPolicy())
        self.chain = chain if chain is not None else AuditChain()
        self.require_goodness_of_fit = require_goodness_of_fit
        self.require_independence = require_independence
        self.alpha = self.config.alpha
        self.dependence_threshold = dependence_threshold
        self._drift_factory = drift_detector
        self._detectors: dict[tuple[str, str], Any] = {}
        self._history: list[LabeledObservation] = []
        self._alerts: list[DriftAlert] = []
        self._recorded = 0
        self._assumptions: AssumptionReport | None = None

    @property
    def assumptions(self) -> AssumptionReport | None:
        """The report of the last :meth:`fit` (``None`` before any fit)."""
        return self._assumptions

    @property
    def drift_alerts(self) -> list[DriftAlert]:
        """Every drift alert so far, oldest first."""
        return list(self._alerts)

    @property
    def history(self) -> list[LabeledObservation]:
        """Every labeled observation folded in, oldest first."""
        return list(self._history)

    def models(self) -> list[DimensionModel]:
        """The current Beta calibration (BayesOutputGate's models)."""
        return self.manager.models()

    @property
    def gate(self) -> FittedGate | None:
        """The gate fitted on the labeled history that decides (refitted on first use after
        new observations); ``None`` with the compatible config, which decides with
        :meth:`models`."""
        if self.config.is_compatible:
            return None
        if self._gate is None:
            self._gate = fit_gate(
                self._history, self.config, self.manager, self.dependence_threshold
            )
        return self._gate

    def guards(self) -> GateGuards:
        """The guards :meth:`record` applies: the last fit's report and the require flags."""
        return GateGuards(
            self._assumptions, self.require_goodness_of_fit, self.require_independence
        )

    def record(
        self, scores: Any, timestamp: str | None = None, context: Mapping[str, Any] | None = None
    ) -> GateDecision:
        """Decide on one output with the current calibration and seal the decision.

        The sealed payload is ``{"kind": "decision", "scores": {...}, "decision": <wire
        GateDecision>, "policy": {...}}`` plus ``"context"`` when given (an id, a trace, any
        JSON object).

        Each recorded score also feeds the dimension's ``"recorded"`` drift detector; a firing
        one adds a :class:`DriftAlert` and seals ``{"kind": "drift", ...}`` after the decision.

        :raises AssayError: ``INVALID_STATE`` when no dimension is known yet (nothing to weigh
            the scores against); otherwise as :func:`~assay_jeffreys.evaluate`.
        """
        if not self.manager.dimensions:
            fail(
                INVALID_STATE, "the monitor knows no dimension yet: observe or fit first", "manager"
            )
        values = to_score_map(scores)
        gate = self.gate
        if gate is None:
            decision = evaluate(values, self.models(), self.policy, self.guards())
        else:
            decision = gate.evaluate(values, self.policy, self.guards())
        payload: dict[str, Any] = {
            "kind": "decision",
            "scores": values,
            "decision": to_wire(decision),
            "policy": self.policy.details()
            if hasattr(self.policy, "details")
            else {"name": self.policy.name},
        }
        if context is not None:
            payload["context"] = dict(context)
        self.chain.append(payload, timestamp)
        self._recorded += 1
        if self._drift_factory is not None:
            for dimension, value in values.items():
                self._watch(dimension, "recorded", value, self._recorded, timestamp)
        return decision

    def observe(
        self, observation: LabeledObservation | Mapping[str, Any], timestamp: str | None = None
    ) -> OutputGateMonitor:
        """Fold one labeled outcome into the calibration and the drift detectors.

        A detector that fires adds a :class:`DriftAlert` and seals ``{"kind": "drift", ...}``
        in the chain. Assumptions are re-assessed by :meth:`fit`, not here.
        """
        obs = observation_from_wire(observation)
        self.manager.observe(obs)
        self._history.append(obs)
        self._gate = None
        if self._drift_factory is not None:
            for score in obs.scores:
                self._watch(score.dimension, obs.label, score.value, len(self._history), timestamp)
        return self

    def _watch(
        self, dimension: str, stream: str, value: float, sequence: int, timestamp: str | None
    ) -> None:
        key = (dimension, stream)
        if key not in self._detectors:
            self._detectors[key] = self._drift_factory()  # type: ignore[misc]
        event = self._detectors[key].update(value)
        if event is None:
            return
        alert = DriftAlert(dimension, stream, sequence, event.to_dict())
        self._alerts.append(alert)
        self.chain.append({"kind": "drift", **to_wire(alert)}, timestamp)

    def fit(
        self,
        observations: Iterable[LabeledObservation | Mapping[str, Any]],
        timestamp: str | None = None,
    ) -> OutputGateMonitor:
        """:meth:`observe` each observation, then re-assess the assumptions on the whole
        history (the report the guards read).

        :raises AssayError: ``INVALID_OBSERVATION`` when ``observations`` is not an array; as
            :meth:`observe` for an item (checked before any is folded in).
        """
        for obs in observations_from_wire(observations):
            self.observe(obs, timestamp)
        self._assess()
        return self

    def _assess(self) -> None:
        """The assumption report of the models that decide: the deciding gate's, or with the
        compatible config :func:`assess_assumptions` of the Beta models."""
        if not self._history:
            return
        gate = self.gate
        if gate is None:
            self._assumptions = assess_assumptions(
                self._history, self.models(), self.alpha, self.dependence_threshold
            )
        else:
            self._assumptions = gate.assumptions

    def audit_trail(self) -> list[AuditEntry]:
        """The sealed chain's entries, oldest first."""
        entries: list[AuditEntry] = self.chain.entries()
        return entries

    def snapshot(self) -> dict[str, Any]:
        """The monitor's state as JSON (the chain itself lives in its own file): calibration,
        policy, guard flags, labeled history, drift detectors and alerts.

        :raises AssayError: ``INVALID_STATE`` when the policy or a drift detector cannot be
            described as JSON (a policy without ``details()``, a detector without
            ``snapshot()``).
        """
        if not hasattr(self.policy, "details"):
            fail(INVALID_STATE, f"policy {self.policy!r} has no details() to snapshot", "policy")
        detectors = []
        for (dimension, stream), detector in self._detectors.items():
            if not hasattr(detector, "snapshot"):
                fail(INVALID_STATE, f"detector {detector!r} cannot be snapshotted", "detectors")
            detectors.append(
                {"dimension": dimension, "stream": stream, "state": detector.snapshot()}
            )
        return {
            "manager": self.manager.snapshot(),
            "policy": self.policy.details(),
            "requireGoodnessOfFit": self.require_goodness_of_fit,
            "requireIndependence": self.require_independence,
            "alpha": self.alpha,
            "dependenceThreshold": self.dependence_threshold,
            "config": self.config.to_wire(),
            "assessed": self._assumptions is not None,
            "history": [
                {"scores": {s.dimension: s.value for s in o.scores}, "label": o.label}
                for o in self._history
            ],
            "recorded": self._recorded,
            "alerts": [to_wire(alert) for alert in self._alerts],
            "detectors": detectors,
        }

    @classmethod
    def from_snapshot(
        cls,
        data: Any,
        chain: AuditChain | None = None,
        drift_detector: Callable[[], Any] | None = default_drift_detector,
    ) -> OutputGateMonitor:
        """Rebuild a monitor from :meth:`snapshot` output; it then behaves as the original
        would (same decisions, same drift alerts) on the same inputs.

        :param chain: the chain to keep sealing into (typically ``AuditChain(path)`` of the
            same file).
        :param drift_detector: the factory for streams not in the snapshot (``None`` turns
            drift watching off, dropping the saved detectors).
        A snapshot without ``"config"`` (written before the calibrated gate) resumes with the
        compatible config, the behaviour it was taken under.
        :raises AssayError: ``INVALID_SNAPSHOT`` when malformed.
        """
        from assay_calibration.drift import Cusum, PageHinkley
        from assay_jeffreys.drift import ScaledPageHinkley
        from assay_jeffreys.policies import policy_from_config

        if not isinstance(data, Mapping):
            fail(INVALID_SNAPSHOT, "a monitor snapshot must be an object", "snapshot")
        try:
            monitor = cls(
                HypothesisManager.from_snapshot(data.get("manager")),
                policy_from_config(data.get("policy"), "snapshot.policy"),
                chain,
                require_goodness_of_fit=bool(data.get("requireGoodnessOfFit", False)),
                require_independence=bool(data.get("requireIndependence", False)),
                drift_detector=drift_detector,
                alpha=data.get("alpha"),
                dependence_threshold=data.get("dependenceThreshold", DEFAULT_DEPENDENCE_THRESHOLD),
                config=gate_config_from_wire(data.get("config", "compatible"), "snapshot.config"),
            )
            monitor._history = [
                observation_from_wire(o, f"snapshot.history[{i}]")
                for i, o in enumerate(data.get("history", []))
            ]
            monitor._recorded = int(data.get("recorded", 0))
            monitor._alerts = [
                DriftAlert(a["dimension"], a["stream"], a["sequence"], a["event"])
                for a in data.get("alerts", [])
            ]
            kinds: dict[str, type[PageHinkley] | type[Cusum] | type[ScaledPageHinkley]] = {
                "page_hinkley": PageHinkley,
                "cusum": Cusum,
                "scaled_page_hinkley": ScaledPageHinkley,
            }
            if drift_detector is not None:
                for item in data.get("detectors", []):
                    state = item["state"]
                    detector = kinds[state["detector"]].from_snapshot(state)
                    monitor._detectors[(item["dimension"], item["stream"])] = detector
        except AssayError as exc:
            fail(INVALID_SNAPSHOT, exc.message, exc.path or "snapshot")
        except (KeyError, TypeError, ValueError) as exc:
            fail(INVALID_SNAPSHOT, f"malformed monitor snapshot: {exc!r}", "snapshot")
        if data.get("assessed"):
            monitor._assess()
        return monitor
