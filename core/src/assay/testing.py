"""Test support for assay and for plugin authors (an opt-in pytest plugin; needs pytest).

Not registered with pytest automatically: installing assay changes no one's test run. Opt in from
the top-level ``conftest.py`` of your tests::

    pytest_plugins = ["assay.testing"]

(or import the fixtures you use into a ``conftest.py``:
``from assay.testing import assay_registry``). The fixtures:

* ``assay_registry`` — a fresh :class:`~assay.Registry` with the built-ins and installed plugins,
  discovered anew for the test (registering into it does not leak into other tests).
* ``assay_empty_registry`` — built-ins only, no entry points.

Behavioural checks for your own objects (call them from your tests):

* :func:`check_dimension` — shape, ``breakdown.raw == raw``, bounds, determinism and a wire
  round trip of a :class:`~assay.Dimension` on given inputs.
* :func:`check_policy` — a :class:`~assay.Policy` returns a Decision with a rule and a reason,
  deterministically.
* :func:`assert_wire_equal` — deep equality of JSON-like values with numbers compared as numbers,
  NaN equal to NaN, and chosen free-text keys ignored (how reference outputs compare).

For compiled kernels (docs/speedups.md): :func:`typed_fields` spells out the types of a result,
:func:`pure_python_result` computes one in a process where every compiled kernel is off.
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs
import pytest

from assay._plugins import build_registry
from assay._protocols import Dimension, Policy
from assay._records import Decision
from assay._registry import Registry
from assay.wire import converter, to_json_safe

__all__ = [
    "assay_empty_registry",
    "assay_registry",
    "assert_wire_equal",
    "check_dimension",
    "check_policy",
    "hostile_json",
    "mutated_json",
    "only_assay_errors",
    "plugin_cli",
    "pure_python_result",
    "typed_fields",
    "wire_differences",
]


@pytest.fixture
def assay_registry() -> Iterator[Registry]:
    """A freshly discovered registry (built-ins and installed plugins)."""
    yield build_registry()


@pytest.fixture
def assay_empty_registry() -> Iterator[Registry]:
    """A registry with the core's built-ins only (no entry points loaded)."""
    yield build_registry(load_entry_points=False)


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def wire_differences(
    actual: Any, expected: Any, *, ignore: Sequence[str] = (), path: str = "$"
) -> list[str]:
    """Every difference between two JSON-like values, as ``path: detail`` strings.

    Numbers compare as numbers (``25 == 25.0``; NaN equals NaN); mappings must have the same key
    sets, except keys named in ``ignore`` (compared nowhere); sequences compare in order.
    """
    if _is_number(actual) and _is_number(expected):
        same = actual == expected or (math.isnan(actual) and math.isnan(expected))
        return [] if same else [f"{path}: {actual!r} != {expected!r}"]
    if isinstance(actual, Mapping) and isinstance(expected, Mapping):
        diffs: list[str] = []
        keys_a = {k for k in actual if k not in ignore}
        keys_e = {k for k in expected if k not in ignore}
        for key in sorted(keys_a - keys_e):
            diffs.append(f"{path}.{key}: unexpected key")
        for key in sorted(keys_e - keys_a):
            diffs.append(f"{path}.{key}: missing key")
        for key in sorted(keys_a & keys_e):
            diffs += wire_differences(
                actual[key], expected[key], ignore=ignore, path=f"{path}.{key}"
            )
        return diffs
    if isinstance(actual, list | tuple) and isinstance(expected, list | tuple):
        if len(actual) != len(expected):
            return [f"{path}: length {len(actual)} != {len(expected)}: {actual!r} vs {expected!r}"]
        diffs = []
        for index, (a, e) in enumerate(zip(actual, expected, strict=True)):
            diffs += wire_differences(a, e, ignore=ignore, path=f"{path}[{index}]")
        return diffs
    if type(actual) is not type(expected) or actual != expected:
        return [f"{path}: {actual!r} != {expected!r}"]
    return []


def assert_wire_equal(actual: Any, expected: Any, *, ignore: Sequence[str] = ()) -> None:
    """Fail with every difference listed unless :func:`wire_differences` finds none."""
    diffs = wire_differences(actual, expected, ignore=ignore)
    assert not diffs, "wire values differ:\n" + "\n".join(diffs[:30])


def check_dimension(
    dimension: Dimension, inputs: Mapping[str, Any], config: Mapping[str, Any] | None = None
) -> None:
    """Assert that ``dimension`` honours the Dimension contract on ``inputs``.

    Checks: the protocol's members exist; ``validate_config`` accepts ``config``; ``score``
    returns a DimensionScore with ``max == max_points``, ``0 <= raw <= max``,
    ``breakdown.raw == raw``; two calls give equal results (determinism); the result
    serializes to JSON.
    """
    config = dict(config or {})
    for member in ("name", "tier", "max_points", "default_weight", "score"):
        assert hasattr(dimension, member), f"{dimension!r} lacks {member}"
    validate = getattr(dimension, "validate_config", None)
    if validate:
        validate(config)
    first = dimension.score(inputs, config)
    second = dimension.score(inputs, config)
    assert first == second, "score() is not deterministic"
    assert first.max == dimension.max_points, "max must equal max_points"
    assert 0 <= first.raw <= first.max, f"raw {first.raw} outside [0, {first.max}]"
    assert first.breakdown.raw == first.raw, "breakdown.raw must equal raw"
    json.dumps(to_json_safe(converter.unstructure(first)), allow_nan=False)


def check_policy(policy: Policy, evidence: Any) -> Decision:
    """Assert that ``policy`` decides ``evidence`` deterministically with a rule and a reason;
    return the decision."""
    first = policy.decide(evidence)
    assert isinstance(first, Decision), f"decide() returned {type(first).__name__}, not Decision"
    assert first.rule and first.reason, "a decision must name its rule and reason"
    assert policy.decide(evidence) == first, "decide() is not deterministic"
    return first


def typed_fields(value: Any) -> Any:
    """``value`` with the type of every part spelled out, as plain JSON-able lists — for
    asserting that a compiled module returns *exactly* what its pure-Python reference returns (the
    wire shape would hide ``25.0`` versus ``25``; ``True == 1`` and dict equality ignore types
    and key order).

    Every part becomes ``[type name, ...]``: an attrs record ``[class name, [[field, ...], ...]]``,
    a mapping ``[type name, [[key, value], ...]]`` in its key order, a list or tuple
    ``[type name, [...]]``, a float ``["float", repr]`` (which keeps NaN and -0.0 apart), anything
    else ``[type name, value]``.
    """
    if attrs.has(type(value)):
        fields = attrs.fields(type(value))
        return [
            type(value).__name__,
            [[f.name, typed_fields(getattr(value, f.name))] for f in fields],
        ]
    if isinstance(value, Mapping):
        return [
            type(value).__name__,
            [[typed_fields(k), typed_fields(v)] for k, v in value.items()],
        ]
    if isinstance(value, list | tuple):
        return [type(value).__name__, [typed_fields(item) for item in value]]
    if isinstance(value, float):
        return [type(value).__name__, repr(value)]
    return [type(value).__name__, value]


def pure_python_result(test_file: str | Path, function: str, *, timeout: float = 600) -> Any:
    """What ``function()`` of the test module ``test_file`` returns when run in a fresh
    interpreter with ``ASSAY_PURE_PYTHON=1`` (every compiled kernel off), read back from JSON —
    to compare with what the same function returns in this process, compiled kernels on.

    The module is imported by name from its folder, so ``function`` and what it calls must not
    depend on pytest fixtures; it must return JSON-able values (see :func:`typed_fields`).

    :raises subprocess.CalledProcessError: when the pure run fails (its stderr is attached);
        :class:`subprocess.TimeoutExpired` after ``timeout`` seconds.
    """
    path = Path(test_file)
    script = (
        "import json, sys, importlib; sys.path.insert(0, sys.argv[1]); "
        "print(json.dumps(getattr(importlib.import_module(sys.argv[2]), sys.argv[3])()))"
    )
    completed = subprocess.run(
        [sys.executable, "-c", script, str(path.parent), path.stem, function],
        env={**os.environ, "ASSAY_PURE_PYTHON": "1"},
        capture_output=True,
        text=True,
        check=True,
        timeout=timeout,
    )
    return json.loads(completed.stdout)


# ------------------------------------------------------------------ fuzzing (needs hypothesis)


def hostile_json() -> Any:
    """A hypothesis strategy for small JSON-like values a careless or hostile caller sends:
    ``None``, booleans, integers (one beyond float range), NaN and infinities, short strings,
    and lists and objects of them. Needs ``hypothesis`` (imported here, not by ``assay``)."""
    from hypothesis import strategies as st

    leaves = st.one_of(
        st.none(),
        st.booleans(),
        st.integers(),
        st.sampled_from([10**400, -1, 2**64 + 1]),
        st.floats(allow_nan=True, allow_infinity=True),
        st.text(max_size=8),
    )
    return st.recursive(
        leaves,
        lambda inner: st.one_of(
            st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=6), inner, max_size=3)
        ),
        max_leaves=6,
    )


def mutated_json(base: Any) -> Any:
    """A hypothesis strategy: a deep copy of the valid value ``base`` with up to three values, at
    any depth, replaced by :func:`hostile_json` ones (or the whole value replaced). Fuzzing near
    valid input reaches the checks that random values never pass."""
    import copy

    from hypothesis import strategies as st

    nasty = hostile_json()

    @st.composite
    def strategy(draw: Any) -> Any:
        tree = copy.deepcopy(base)
        for _ in range(draw(st.integers(0, 3))):
            node: Any = None
            key: Any = None
            cursor = tree
            while isinstance(cursor, dict | list) and cursor and draw(st.booleans()):
                keys = list(cursor) if isinstance(cursor, dict) else list(range(len(cursor)))
                node, key = cursor, draw(st.sampled_from(keys))
                cursor = node[key]
            if node is None:
                tree = draw(nasty)
            else:
                node[key] = draw(nasty)
        return tree

    return strategy()


def only_assay_errors(call: Any) -> None:
    """Call ``call()``; an :class:`~assay.AssayError` with a code and a message is fine, any other
    exception propagates (and fails the test): the contract "bad input raises AssayError"."""
    from assay._errors import AssayError

    try:
        call()
    except AssayError as error:
        assert error.code and isinstance(error.message, str), error


def plugin_cli(*hook_modules: Any) -> Any:
    """A root ``assay`` command group holding only the commands of ``hook_modules`` (each a
    module with an ``assay_cli`` hook), added through that hook as the real CLI does: commands
    then get the shared error lines and exit codes. Run it with ``click.testing.CliRunner``."""
    from assay.cli import AssayGroup

    root = AssayGroup(name="assay")
    for module in hook_modules:
        module.assay_cli(root)
    return root
