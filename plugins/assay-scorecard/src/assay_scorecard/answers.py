"""Answer-first scoring: from an answer record (question, answer, contexts) to a scorecard and
the text evidence behind it.

The composition is: a :class:`~assay_scorecard.SignalReader` (by name, from the registry)
derives the text signals; the contexts' retrieval metadata gives the candidates
(:func:`~assay_scorecard.answer_records.candidate_signals`); the record's own ``signals`` take
precedence over both; the scorer scores the result with preset ``grounded-v1`` unless the config
names another.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import attrs
import orjson

from assay import AssayError, ErrorCode, Registry, ScoreWarning, default_registry
from assay_scorecard.answer_records import (
    INVALID_ANSWER_RECORD,
    AnswerRecord,
    candidate_signals,
    read_answer_record,
)
from assay_scorecard.engine import Scorer, cached_scorer, create_scorer
from assay_scorecard.field_checks import preset_problem, report_field_problems
from assay_scorecard.input_checks import INVALID_VALUE
from assay_scorecard.presets import GROUNDED_PRESET
from assay_scorecard.readers import SignalReader, find_reader, read_signals
from assay_scorecard.render import render_html, render_markdown, render_text
from assay_scorecard.requests import check_stream_config
from assay_scorecard.text_evidence import TextEvidence
from assay_scorecard.types import Scorecard, ScoringConfig
from assay_scorecard.wire import (
    scorecard_to_json,
    scorecard_to_wire,
    scoring_config_to_wire,
    wire_to_json,
)

__all__ = [
    "AnswerLines",
    "AnswerResult",
    "AnswerScorer",
    "StreamScorer",
    "answer_config",
    "create_answer_scorer",
    "score_answer_record",
    "split_reader",
    "with_record_id",
]

Config = ScoringConfig | Mapping[str, Any] | None


@attrs.frozen
class AnswerResult:
    """A scorecard scored from an answer's text, with what it was scored from.

    Attributes:
        scorecard: the scorecard (total, tiers, recommended action and the rule that decided).
        evidence: what the signal reader found in the text: claims, spans, unsupported items,
            conflicts, notes.
        inputs: the scoring inputs the scorecard was computed from (JSON input format): the
            derived signals, the candidates and the record's own signals.
    """

    scorecard: Scorecard
    evidence: TextEvidence
    inputs: Mapping[str, Any]

    def to_wire(self) -> dict[str, Any]:
        """``{"scorecard": <the scorecard's JSON shape>, "signals": <inputs>, "evidence":
        <TextEvidence.to_wire()>}``."""
        return {
            "scorecard": scorecard_to_wire(self.scorecard),
            "signals": dict(self.inputs),
            "evidence": self.evidence.to_wire(),
        }

    def to_json(self, *, indent: int | None = None) -> str:
        """:meth:`to_wire` as JSON text (compact without ``indent``; non-finite numbers tagged
        ``{"$float": "NaN"}``, as in :func:`~assay_scorecard.scorecard_to_json`)."""
        if indent is not None:
            return wire_to_json(self.to_wire(), indent=indent)
        return (
            f'{{"scorecard":{scorecard_to_json(self.scorecard)},'
            f'"signals":{wire_to_json(self.inputs)},'
            f'"evidence":{_evidence_json(self.evidence)}}}'
        )

    def render_text(self) -> str:
        """The terminal report, with the text evidence (:func:`~assay_scorecard.render_text`)."""
        return render_text(self.scorecard, evidence=self.evidence)

    def render_markdown(self) -> str:
        """The Markdown report, with the text evidence."""
        return render_markdown(self.scorecard, evidence=self.evidence)

    def render_html(self) -> str:
        """The HTML fragment, with the text evidence (all text escaped)."""
        return render_html(self.scorecard, evidence=self.evidence)


def _evidence_json(evidence: TextEvidence) -> str:
    """Compact JSON of the evidence's wire shape: written by orjson when its numbers (the
    score and the claims' support, where a reader may put anything) are finite; else tagged,
    as :func:`~assay_scorecard.wire.wire_to_json` tags them."""
    numbers = [claim.support for claim in evidence.claims]
    numbers.append(evidence.score)
    if all(number is None or _finite(number) for number in numbers):
        try:
            return orjson.dumps(evidence.to_wire()).decode()
        except TypeError:  # a value orjson does not write (an int beyond 64 bits)
            pass
    return wire_to_json(evidence.to_wire())


def _finite(number: Any) -> bool:
    try:
        return math.isfinite(number)
    except (TypeError, OverflowError):
        return False


def split_reader(config: Config) -> tuple[dict[str, Any], str | None]:
    """``config`` (wire shape) without its ``reader`` key, and the reader it names: what a
    scorer is built from (a scorer does not read ``reader``).

    :raises AssayError: ``INVALID_CONFIG`` (path ``reader``) when ``reader`` is not a string.
    """
    wire = scoring_config_to_wire(config)
    reader = wire.pop("reader", None)
    if reader is not None and not isinstance(reader, str):
        raise AssayError(
            ErrorCode.INVALID_CONFIG,
            f"reader must be the name of a signal reader, not {type(reader).__name__}",
            "reader",
        )
    return wire, reader


def answer_config(
    config: Config, registry: Registry | None = None
) -> tuple[dict[str, Any], str | None]:
    """The scoring config of answer records and the reader it names: :func:`split_reader`,
    with ``preset`` ``grounded-v1`` when the config names none, or names no registered preset.

    An unregistered name (``"grounded-v2"``, ``"Grounded-v1"``) or a value that is not a
    string falls back to ``grounded-v1``, not to the scorecard's default ``balanced-v0.3``
    (which answers an unsupported answer whose retrieval scores are high): a
    :class:`~assay_scorecard.FieldWarning` with a did-you-mean says so, or, with
    ``"validation": "strict"``, an ``INVALID_CONFIG`` error at ``preset``.

    :param registry: where the preset is looked up; default :func:`assay.default_registry`.
    :raises AssayError: as :func:`split_reader`; ``INVALID_CONFIG`` as above.
    """
    wire, reader = split_reader(config)
    preset = wire.get("preset")
    if preset is None:
        wire["preset"] = GROUNDED_PRESET
        return wire, reader
    registry = default_registry() if registry is None else registry
    if isinstance(preset, str) and registry.has("preset", preset):
        return wire, reader
    scope = " to answer records"
    problem = preset_problem(preset, registry.names("preset"), GROUNDED_PRESET, scope)
    if problem is None:  # not a string
        problem = ScoreWarning(
            INVALID_VALUE,
            "warn",
            f"expected the name of a preset, got {type(preset).__name__}, so "
            f"{GROUNDED_PRESET!r} applies{scope}",
            "preset",
        )
    report_field_problems(
        [problem], strict=wire.get("validation") == "strict", code=ErrorCode.INVALID_CONFIG
    )
    wire["preset"] = GROUNDED_PRESET
    return wire, reader


def _compose(reader: SignalReader, record: AnswerRecord, scorer: Scorer) -> AnswerResult:
    reading = read_signals(reader, record)
    own, own_notes = _caller_signals(record.signals, reading.inputs, scorer)
    inputs = {**reading.inputs, **own}
    notes: tuple[str, ...] = own_notes
    if "candidates" not in inputs:  # from the contexts, unless the reader or caller gave them
        inputs["candidates"], candidate_notes = candidate_signals(record.contexts)
        notes = (*notes, *candidate_notes)
    evidence = reading.evidence
    if notes:
        evidence = TextEvidence(
            evidence.reader,
            evidence.score,
            evidence.summary,
            evidence.claims,
            evidence.conflicts,
            (*evidence.notes, *notes),
        )
    return AnswerResult(scorer.compute(inputs), evidence, inputs)


def _caller_signals(
    signals: Mapping[str, Any], derived: Mapping[str, Any], scorer: Scorer
) -> tuple[dict[str, Any], tuple[str, ...]]:
    """The record's own signals that take precedence over the derived ones, and a note on each
    one set aside or overriding a derived value.

    A signal of an unknown name, or whose value has the wrong type or case (``"High"``), is
    checked as the scorer checks scoring inputs (path ``signals.<name>``): in strict validation
    it is an ``INVALID_ANSWER_RECORD`` error; otherwise a
    :class:`~assay_scorecard.field_checks.FieldWarning` and it is set aside, so the derived
    signal stands (an unreadable value would otherwise score as something else, e.g. ``"High"``
    as a low support level, under a report that says the answer is supported).

    :raises AssayError: ``INVALID_ANSWER_RECORD`` in strict validation, for the first problem.
    """
    if not signals:
        return {}, ()
    own = dict(signals)
    problems = [
        attrs.evolve(problem, path=f"signals.{problem.path}")
        for problem in scorer.field_problems(own)
    ]
    if problems and scorer.strict:
        first = problems[0]
        raise AssayError(INVALID_ANSWER_RECORD, first.message, first.path)
    report_field_problems(problems, strict=False, code=ErrorCode.INVALID_INPUT)
    notes = []
    for problem in problems:
        key = problem.path.removeprefix("signals.")
        if key in own:  # the value as a whole is unreadable (not a key inside it)
            del own[key]
            meant = key if key in derived else _meant(key, problem.message, derived)
            if meant == key:
                stands = "the derived value stands."
            elif meant is not None:  # a misspelled name: the signal it meant is the derived one
                stands = f"the {meant} derived from the text stands."
            else:
                stands = "nothing replaces it."
            notes.append(f"{problem.path} was ignored ({problem.message}); {stands}")
    for key, value in own.items():
        if key in derived and derived[key] != value:
            notes.append(
                f"signals.{key} given with the record ({_short(value)}) overrides the value "
                f"derived from the text ({_short(derived[key])})."
            )
    return own, tuple(notes)


def _meant(key: str, message: str, derived: Mapping[str, Any]) -> str | None:
    """The derived signal a misspelled name's did-you-mean names (``supportlevel`` ->
    ``supportLevel``), else ``None``."""
    for name in derived:
        if f"did you mean {name!r}?" in message:
            return name
    return None


def _short(value: Any) -> str:
    text = wire_to_json(value)
    return text if len(text) <= 60 else text[:57] + "..."


class AnswerScorer:
    """A signal reader and a scorer, resolved and validated once: :meth:`score` per answer.

    Build one with :func:`create_answer_scorer`. Thread-safe: holds no per-call state.
    """

    def __init__(self, scorer: Scorer, reader: SignalReader) -> None:
        self.scorer = scorer
        self.reader = reader

    def score(self, record: AnswerRecord | Mapping[str, Any]) -> AnswerResult:
        """Score one answer record (an :class:`AnswerRecord` or its JSON form; a ``config`` in
        it is ignored: this scorer's config applies).

        :raises AssayError: ``INVALID_ANSWER_RECORD`` / ``INVALID_CONTEXT`` for a bad record,
            the reader's errors (``READER_FAILED`` for a broken reader), and the scorer's.
        """
        return _compose(self.reader, read_answer_record(record), self.scorer)

    def __repr__(self) -> str:
        return f"<AnswerScorer reader={self.reader.name} scorer={self.scorer!r}>"


def create_answer_scorer(
    config: Config = None,
    *,
    reader: str | SignalReader | None = None,
    registry: Registry | None = None,
) -> AnswerScorer:
    """Build an :class:`AnswerScorer`, validating the config and finding the reader once.

    :param config: the scoring config (wire shape or :class:`ScoringConfig`); its ``preset``
        defaults to ``grounded-v1``; its ``reader`` names the signal reader.
    :param reader: a reader name or object; takes precedence over the config's ``reader``;
        default ``answer-support``.
    :param registry: where names are looked up; default :func:`assay.default_registry`.
    :raises AssayError: as :func:`~assay_scorecard.create_scorer` and
        :func:`~assay_scorecard.find_reader`.
    """
    wire, configured = answer_config(config, registry)
    found = find_reader(reader if reader is not None else configured, registry)
    return AnswerScorer(create_scorer(wire, registry=registry), found)


_DEFAULT_CONFIG, _ = answer_config(None)


def score_answer_record(
    record: AnswerRecord | Mapping[str, Any],
    config: Config = None,
    *,
    reader: str | SignalReader | None = None,
) -> AnswerResult:
    """Score one answer record with the default registry.

    :param record: an :class:`AnswerRecord`, or its JSON form ``{"question", "answer",
        "contexts", "signals"?, "config"?, "id"?}``.
    :param config: the config for a record that carries none (see
        :func:`create_answer_scorer`). Scorers are kept per config, as
        :func:`~assay_scorecard.compute_confidence` keeps them.
    :param reader: a reader name or object (default: the config's ``reader``, else
        ``answer-support``).
    :raises AssayError: as :meth:`AnswerScorer.score` and :func:`create_answer_scorer`.
    """
    if isinstance(record, Mapping) and record.get("config") is not None:
        config = record["config"]
    if config is None:
        wire, configured = _DEFAULT_CONFIG, None
    else:
        wire, configured = answer_config(config)
    found = find_reader(reader if reader is not None else configured)
    return _compose(found, read_answer_record(record), cached_scorer(wire))


def with_record_id(record: Any, text: str) -> str:
    """``text``, the JSON object of an answer record's result, with the record's ``id`` as its
    first key (``{"id": "q-17", "scorecard": ...}``) when the record has one that is not
    ``null``: the output line of ``assay score --json`` / ``--jsonl`` names the answer it
    scored, so a failed gate's answers can be found. ``text`` unchanged otherwise."""
    ident = record.get("id") if isinstance(record, Mapping) else None
    if ident is None:
        return text
    pretty = text.startswith("{\n")
    head = f'{{\n  "id": {wire_to_json(ident)},' if pretty else f'{{"id":{wire_to_json(ident)},'
    return head + text[1:]


class AnswerLines:
    """The answer records of a JSON Lines stream, scored with the stream's config and reader.

    The :class:`AnswerScorer` is built at the first answer record (a stream of scoring inputs
    alone needs no reader installed); an error building it is every answer record's error.
    Pickles without the built scorer (a worker process builds its own).
    """

    def __init__(self, config: Config, reader: str | None = None) -> None:
        self.config = config
        self.reader = reader
        self._scorer: AnswerScorer | None = None
        self._error: AssayError | None = None

    def scorer(self) -> AnswerScorer:
        """The answer scorer, built on first use.

        :raises AssayError: what building it raised (every time it is asked for).
        """
        if self._scorer is None:
            if self._error is None:
                try:
                    self._scorer = create_answer_scorer(self.config, reader=self.reader)
                except AssayError as error:
                    self._error = error
            if self._error is not None:
                raise AssayError(
                    self._error.code, self._error.message, self._error.path, self._error.details
                )
        return self._scorer  # type: ignore[return-value]

    def score_json(self, record: Mapping[str, Any], config_key: str) -> str:
        """The compact JSON of one answer record's :class:`AnswerResult`, with the record's
        ``id`` first when it has one (:func:`with_record_id`).

        :raises AssayError: ``INVALID_CONFIG`` (path ``config``) when the record carries a
            config other than the stream's (``config_key`` is its canonical JSON); otherwise as
            :meth:`AnswerScorer.score`.
        """
        check_stream_config(record.get("config"), config_key)
        return with_record_id(record, self.scorer().score(record).to_json())

    def __getstate__(self) -> dict[str, Any]:
        return {"config": self.config, "reader": self.reader}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__(state["config"], state["reader"])  # type: ignore[misc]


class StreamScorer:
    """What the rows of a JSON Lines stream are scored with: scoring requests by ``scorer``
    (:meth:`compute` is its ``compute``), answer records by ``answers``.

    :param scorer: the stream's scorer.
    :param answers: the stream's answer records' scorer.
    """

    __slots__ = ("answers", "compute", "scorer")

    def __init__(self, scorer: Scorer, answers: AnswerLines) -> None:
        self.scorer = scorer
        self.answers = answers
        self.compute = scorer.compute

    def __reduce__(self) -> tuple[Any, ...]:
        return (StreamScorer, (self.scorer, self.answers))
