"""Unknown and misspelled fields in scoring inputs and configs.

transparent-confidence 0.3 ignores a key it does not know and reads a value of the wrong type or
case as something else: ``support_level`` or ``suportLevel`` leaves the support level unset,
``"High"`` scores as a low support level, ``faithfulness_score`` as no support signal, and the
recommended action changes without a word. A scorer reports each such field:

* ``validation: "strict"``: the first one raises :class:`~assay.AssayError`, ``INVALID_INPUT``
  for inputs (per answer, after the input problems transparent-confidence 0.3 itself reports)
  and ``INVALID_CONFIG`` for the config (when the scorer is built, after its own validation),
  with the field's path and a did-you-mean;
* otherwise: a :class:`FieldWarning` (a Python ``UserWarning``) per field, carrying the
  :class:`~assay.ScoreWarning` (code ``unknown-field`` or ``invalid-value``, path, message).
  The scorecard is unchanged: its JSON shape and ``meta.warnings`` stay those of
  transparent-confidence 0.3 for the same input.

Known input fields are the scorecard's own (the wire fields of
:class:`~assay_scorecard.ScoringInputs`, nested records included) and those each dimension of
the scorer declares in its ``reads``. Known config fields are the scorecard's settings (the
wire fields of :class:`~assay_scorecard.ScoringConfig`) and the section of each dimension of the
scorer (a dimension's section carries its name); inside ``weights`` the dimensions' names,
inside ``actionPolicy`` the default action policy's settings (another policy's settings are its
own), inside ``signalPolicy`` the signal policy's settings and signal names. What is inside a
dimension's section is the dimension's to validate (``validate_config``).
"""

from __future__ import annotations

import types
import typing
import warnings
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from functools import lru_cache
from typing import Any, NamedTuple

import attrs

from assay import AssayError, ErrorCode, ScoreWarning
from assay.wire import to_camel
from assay_scorecard.input_checks import (
    COMMON_VALUE_RULES,
    INVALID_VALUE,
    ValueRule,
    common_value_problems,
    value_problem,
    value_rules,
)
from assay_scorecard.policy import ThresholdActionPolicy
from assay_scorecard.presets import DEFAULT_PRESET
from assay_scorecard.signal_policy import _MISSING as _SIGNAL_CHECKS  # one list of names
from assay_scorecard.signal_policy import SignalPolicy
from assay_scorecard.signals import closest_name
from assay_scorecard.types import (
    ActionPolicyConfig,
    ScoringConfig,
    ScoringInputs,
    SignalPolicyConfig,
)

__all__ = [
    "CONFIG_FIELDS",
    "SCORING_INPUT_FIELDS",
    "SIGNAL_NAMES",
    "UNKNOWN_FIELD",
    "FieldWarning",
    "InputCheck",
    "check_config_fields",
    "input_field_check",
    "input_field_problems",
    "known_input_keys",
    "report_field_problems",
    "unknown_input_fields",
]

UNKNOWN_FIELD = "unknown-field"
"""Warning code: a key no part of the scorer reads; its message suggests the known key it was
probably meant to be."""


class FieldWarning(UserWarning):
    """An unknown or misspelled field, outside ``validation: "strict"``.

    Attributes:
        warning: the :class:`~assay.ScoreWarning` (code ``unknown-field`` or ``invalid-value``,
            severity ``warn``, the field's path, a message with a did-you-mean).
    """

    def __init__(self, warning: ScoreWarning) -> None:
        # args hold what the constructor takes, so copies (pickle, the warning relayed from a
        # pytest-xdist worker) rebuild it as FieldWarning(*args)
        super().__init__(warning)
        self.warning = warning

    def __str__(self) -> str:
        return f"{self.warning.path}: {self.warning.message}"


_SHOWN: dict[Any, Any] = {}
"""the messages already shown (Python's ``default`` warning action shows each one once)"""


def report_field_problems(problems: Sequence[ScoreWarning], *, strict: bool, code: str) -> None:
    """Raise the first of ``problems`` as ``AssayError(code, message, path)`` when ``strict``;
    otherwise emit each as a :class:`FieldWarning`.

    The warnings are attributed to ``scoring inputs`` (``code`` ``INVALID_INPUT``) or ``scoring
    config`` rather than to a line of this package, so that they print as one line
    (``scoring inputs:0: FieldWarning: support_level: unknown input field; did you mean
    'supportLevel'?``); the usual filters apply (``warnings.simplefilter("error",
    FieldWarning)`` makes them errors).
    """
    if not problems:
        return
    if strict:
        first = problems[0]
        raise AssayError(code, first.message, first.path)
    source = "scoring inputs" if code == ErrorCode.INVALID_INPUT else "scoring config"
    for problem in problems:
        warnings.warn_explicit(
            FieldWarning(problem), FieldWarning, source, 0, "assay_scorecard", _SHOWN
        )


# ------------------------------------------------------------------ input fields
def _record_paths(record: type, prefix: str) -> list[str]:
    """The wire paths of an attrs record's fields: ``prefix + name``, and for a field holding a
    record (or an array of records) the paths of that record's fields after ``name.``
    (``name[].``)."""
    hints = typing.get_type_hints(record)
    paths = []
    for field in attrs.fields(record):
        name = prefix + to_camel(field.name)
        paths.append(name)
        hint = hints[field.name]
        union = typing.get_origin(hint) in (typing.Union, types.UnionType)
        for part in typing.get_args(hint) if union else (hint,):
            if attrs.has(part):
                paths += _record_paths(part, name + ".")
            elif typing.get_origin(part) is tuple and attrs.has(typing.get_args(part)[0]):
                paths += _record_paths(typing.get_args(part)[0], name + "[].")
    return paths


SCORING_INPUT_FIELDS = frozenset(_record_paths(ScoringInputs, ""))
"""The wire paths of the JSON input format's fields: ``supportLevel``, ...,
``candidates[].documentId``, ``claimSupport.totalClaims``, ``indexIntegrity.aclFilterConfirmed``."""


def known_input_keys(dimensions: Iterable[Any]) -> frozenset[str]:
    """The input fields a scorer of ``dimensions`` knows, as wire paths (``candidates[].rank``,
    ``claimSupport.totalClaims``): :data:`SCORING_INPUT_FIELDS` and every dimension's ``reads``.

    A container's keys are checked only when some path names a key inside it: the methods of
    ``candidates[].retrievalScores`` are free, the keys of ``claimSupport`` are not.
    """
    known = set(SCORING_INPUT_FIELDS)
    for dimension in dimensions:
        known.update(getattr(dimension, "reads", ()))
    return frozenset(known)


@attrs.frozen
class _Tree:
    """Known keys at one level, and the levels below: ``items`` for a key holding an array of
    objects (``candidates``), ``members`` for a key holding an object (``claimSupport``)."""

    keys: frozenset[str]
    items: Mapping[str, _Tree]
    members: Mapping[str, _Tree]

    @property
    def depth(self) -> int:
        return 1 + max((t.depth for t in (*self.items.values(), *self.members.values())), default=0)


@lru_cache(maxsize=64)
def _tree(known: frozenset[str]) -> _Tree:
    keys: set[str] = set()
    items: dict[str, set[str]] = {}
    members: dict[str, set[str]] = {}
    for path in known:
        head, _, rest = path.partition(".")
        below = members
        if head.endswith("[]"):
            head, below = head[:-2], items
        keys.add(head)
        if rest:
            below.setdefault(head, set()).add(rest)
    return _Tree(
        frozenset(keys),
        {key: _tree(frozenset(paths)) for key, paths in items.items()},
        {key: _tree(frozenset(paths)) for key, paths in members.items()},
    )


def _unknown_key(key: Any, known: Collection[str], path: str, what: str, why: str) -> ScoreWarning:
    """An ``unknown-field`` warning: ``unknown <what>; did you mean ...?``, or ``unknown
    <what>: <why>`` when no known name is close."""
    meant = closest_name(str(key), known)
    tail = f"; did you mean {meant!r}?" if meant else f": {why}"
    return ScoreWarning(UNKNOWN_FIELD, "warn", f"unknown {what}{tail}", path)


_NOT_READ = "not in the JSON input format, and no dimension of this scorer reads it"


def _walk(data: Mapping[Any, Any], tree: _Tree, prefix: str, found: list[ScoreWarning]) -> None:
    for key, value in data.items():
        path = f"{prefix}{key}"
        if key not in tree.keys:
            found.append(_unknown_key(key, tree.keys, path, "input field", _NOT_READ))
            continue
        below = tree.members.get(key)
        if below is not None and isinstance(value, Mapping):
            _walk(value, below, path + ".", found)
        below = tree.items.get(key)
        if below is not None and isinstance(value, list | tuple):
            for index, item in enumerate(value):
                if isinstance(item, Mapping):
                    _walk(item, below, f"{path}[{index}].", found)


def unknown_input_fields(data: Mapping[str, Any], known: frozenset[str]) -> list[ScoreWarning]:
    """An ``unknown-field`` warning for each key of ``data`` (nested ones included) that is not
    in ``known`` (paths as :func:`known_input_keys` gives them), in ``data``'s order, with the
    known key it was probably meant to be (``support_level`` -> ``supportLevel``)."""
    found: list[ScoreWarning] = []
    _walk(data, _tree(known), "", found)
    return found


def input_field_problems(data: Mapping[str, Any], known: frozenset[str]) -> list[ScoreWarning]:
    """Every field problem of ``data``: its unknown keys (:func:`unknown_input_fields`), then
    its values of a wrong type or spelling
    (:func:`~assay_scorecard.input_checks.common_value_problems`)."""
    return unknown_input_fields(data, known) + common_value_problems(data)


_NOTHING: tuple[ScoreWarning, ...] = ()
_JSON = frozenset({dict, list, str, int, float, bool, type(None)})
"""the types of JSON values: what a known key without a value rule may hold"""
_SHAPES_KEPT = 256
"""how many top-level shapes one check remembers: the inputs of one pipeline share a few (the
conformance cases, made to differ, have 197 among 616 inputs); past it, a new shape is checked
without being remembered, so a stream of ever-new shapes cannot grow memory"""
_EMPTY: frozenset[str] = frozenset()
_UNSEEN: Any = object()

InputCheck = Callable[[Mapping[str, Any]], Sequence[ScoreWarning]]


class _Plan(NamedTuple):
    """What the quick test still looks at for inputs of one top-level shape (keys in order,
    their values' types) whose keys are all known and whose types all fit."""

    choices: tuple[tuple[str, frozenset[str]], ...]
    """the fields present that accept only some strings, with those strings"""
    members: tuple[tuple[str, frozenset[str]], ...]
    """the objects present whose keys are checked, with the known keys"""


def input_field_check(known: frozenset[str]) -> InputCheck:
    """A scorer's per-answer field check: ``check(data)`` gives :func:`input_field_problems`
    ``(data, known)``, an empty tuple when there are none.

    Built once per scorer. In the common case (every key known, every value of its type) a call
    costs a few set operations: the top level's shape (its keys in order, their values' types)
    is looked up among the shapes already seen, which says whether they fit and what is left to
    look at (the values of fields with choices, the keys of the objects below). Only otherwise
    does it walk the input and look for the names meant.
    """
    tree = _tree(known)
    if tree.depth > 2:  # the quick test looks one level down only

        def walk(data: Mapping[str, Any]) -> Sequence[ScoreWarning]:
            return input_field_problems(data, known)

        return walk
    rules = COMMON_VALUE_RULES
    types_of = {key: rules[key].types if key in rules else _JSON for key in tree.keys}
    choices_of = {key: rule.choices for key, rule in rules.items() if rule.choices}
    items = tuple((key, below.keys) for key, below in tree.items.items())
    members = {key: below.keys for key, below in tree.members.items()}
    plans: dict[tuple[Any, ...], _Plan | None] = {}

    def plan_of(data: Mapping[str, Any]) -> _Plan | None:
        for key, value in data.items():
            if key not in types_of or type(value) not in types_of[key]:
                return None
        return _Plan(
            tuple((key, choices_of[key]) for key in data if key in choices_of),
            tuple((key, members[key]) for key in data if key in members),
        )

    def check(data: Mapping[str, Any]) -> Sequence[ScoreWarning]:
        shape = (*data, *map(type, data.values()))
        plan = plans.get(shape, _UNSEEN)
        if plan is _UNSEEN:
            plan = plan_of(data)
            if len(plans) < _SHAPES_KEPT:
                plans[shape] = plan
        if plan is None:
            return input_field_problems(data, known)
        with_choices, objects = plan
        try:
            for key, choices in with_choices:
                value = data[key]
                if value is not None and value not in choices:
                    return input_field_problems(data, known)
            for key, keys in items:
                value = data.get(key)
                if value is not None and (
                    type(value) is not list or not _EMPTY.union(*value) <= keys
                ):
                    return input_field_problems(data, known)
            for key, keys in objects:
                value = data[key]
                if value is not None and (type(value) is not dict or not value.keys() <= keys):
                    return input_field_problems(data, known)
        except TypeError:  # an array item that is not an object: the walk reads it properly
            return input_field_problems(data, known)
        return _NOTHING

    return check


# ------------------------------------------------------------------ config fields
CONFIG_FIELDS = frozenset(
    to_camel(field.name) for field in attrs.fields(ScoringConfig) if field.name != "sections"
)
"""The scorecard's own config settings (``preset``, ``weights``, ``actionPolicy``,
``signalPolicy``, ``validation``); every other top-level key is a dimension's section."""

_CONFIG_RULES = value_rules(
    ScoringConfig, skip=("weights", "action_policy", "signal_policy", "sections")
)
_ACTION_RULES = value_rules(ActionPolicyConfig)
# the typed config's settings and the signal policy's own (a setting read by the policy is
# known even before the typed config names it); requireSupportEvaluator and warnOnConflict
# come from the preset
_SIGNAL_RULES = {
    **value_rules(SignalPolicy, skip=("require_support_evaluator", "warn_on_conflict")),
    **value_rules(SignalPolicyConfig),
}
_SIGNAL_LISTS = ("require", "reviewWhenMissing", "abstainWhenMissing")
SIGNAL_NAMES = frozenset({*_SIGNAL_CHECKS, "indexIntegrity"})
"""The signal names the signal policy knows (docs/scorecard.md lists them)."""


def _section(
    key: str, section: Any, rules: Mapping[str, ValueRule], found: list[ScoreWarning]
) -> None:
    """The unknown keys and invalid values of the settings section ``key``."""
    if not isinstance(section, Mapping):
        return
    for name, value in section.items():
        path = f"{key}.{name}"
        rule = rules.get(name)
        if rule is None:
            found.append(
                _unknown_key(name, rules, path, f"{key} setting", "the scorer does not read it")
            )
            continue
        problem = value_problem(path, value, rule)
        if problem is not None:
            found.append(problem)


def check_config_fields(
    config: Mapping[str, Any],
    *,
    dimensions: Iterable[Any],
    policy: Any = None,
    presets: Collection[str] = (),
) -> list[ScoreWarning]:
    """The unknown and misspelled fields of a caller's config (before a preset's defaults are
    merged in), in its key order, as ``unknown-field`` / ``invalid-value`` warnings.

    :param config: the wire-shape config.
    :param dimensions: the scorer's dimensions: their names are the known sections and weights.
    :param policy: the scorer's action policy; ``actionPolicy``'s keys are checked only for the
        default one (:class:`~assay_scorecard.ThresholdActionPolicy`).
    :param presets: the registered preset names; ``preset`` is checked against them when given.
    """
    if not isinstance(config, Mapping):
        return []
    names = [d.name for d in dimensions]
    known = CONFIG_FIELDS | set(names)
    found: list[ScoreWarning] = []
    for key, value in config.items():
        if key not in known:
            why = (
                "neither a scorer setting nor the section of one of this scorer's dimensions "
                f"({', '.join(names)})"
            )
            found.append(_unknown_key(key, known, str(key), "config field", why))
        elif key in _CONFIG_RULES:
            problem = value_problem(key, value, _CONFIG_RULES[key])
            if problem is None and key == "preset" and presets:
                problem = preset_problem(value, presets)
            if problem is not None:
                found.append(problem)
        elif key == "weights" and isinstance(value, Mapping):
            for name in value:
                if name not in names:
                    why = f"this scorer's dimensions are {', '.join(names)}"
                    found.append(_unknown_key(name, names, f"weights.{name}", "dimension", why))
        elif key == "actionPolicy" and isinstance(policy, ThresholdActionPolicy):
            _section(key, value, _ACTION_RULES, found)
        elif key == "signalPolicy":
            _section(key, value, _SIGNAL_RULES, found)
            _signal_names(value, found)
    return found


def preset_problem(
    value: Any, presets: Collection[str], default: str = DEFAULT_PRESET, scope: str = ""
) -> ScoreWarning | None:
    """The ``invalid-value`` warning (path ``preset``) for a config's ``preset`` that names no
    registered preset, saying that ``default`` applies instead; ``None`` for a registered name
    (bare or ``plugin/name``), an absent preset (``None``) and a value that is not a string
    (the type check reports that).

    :param presets: the registered preset names.
    :param default: the preset that applies instead: ``balanced-v0.3`` for scoring inputs,
        ``grounded-v1`` for answer records.
    :param scope: what it applies to, after the preset's name (``" to answer records"``).
    """
    if not isinstance(value, str) or value in presets or value.rpartition("/")[2] in presets:
        return None
    meant = closest_name(value, presets)
    hint = f"; did you mean {meant!r}?" if meant else ""
    return ScoreWarning(
        INVALID_VALUE,
        "warn",
        f"{value!r} is not a registered preset, so {default!r} applies{scope}{hint}",
        "preset",
    )


def _signal_names(section: Any, found: list[ScoreWarning]) -> None:
    if not isinstance(section, Mapping):
        return
    for key in _SIGNAL_LISTS:
        names = section.get(key)
        if not isinstance(names, list | tuple):
            continue
        for index, name in enumerate(names):
            if isinstance(name, str) and name not in SIGNAL_NAMES:
                meant = closest_name(name, SIGNAL_NAMES)
                hint = f"; did you mean {meant!r}?" if meant else ""
                found.append(
                    ScoreWarning(
                        INVALID_VALUE,
                        "warn",
                        f"{name!r} is not a signal name (an unknown name counts as missing "
                        f"while inputs.indexIntegrity is absent){hint}",
                        f"signalPolicy.{key}[{index}]",
                    )
                )
