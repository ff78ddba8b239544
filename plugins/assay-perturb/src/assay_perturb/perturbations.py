"""The three built-in perturbations of the specification: reorder, pad and swap.

Each is a :class:`assay.Perturbation`: ``variants(case, others, rng, params)`` returns the case's
perturbed versions. The only randomness is the ``rng`` the runner hands in (derived from the
configured ``seed`` value, the case name and the perturbation name), so the same value always gives
the same variants, whichever other cases are selected with ``--only``.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Mapping, Sequence
from typing import Any

import assay

__all__ = ["FILLER_WORDS", "Pad", "Reorder", "Swap"]

FILLER_WORDS = (
    (
        "the committee archive lists seasonal weather notes for the northern garden and a short "
        "history of the town library, including opening hours of the museum cafe, parking rules "
        "for visitors, and a recipe for bread baked with rye flour and caraway seeds"
    )
    .replace(",", "")
    .split()
)
"""Vocabulary of generated filler chunks: neutral prose unrelated to any plausible query."""


def _int_param(owner: str, params: Mapping[str, Any], key: str, default: int, minimum: int) -> int:
    value = params.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise assay.AssayError(
            "INVALID_CONFIG",
            f"must be an integer >= {minimum}, got {value!r}",
            f"perturbations.{owner}.{key}",
        )
    return value


def _choice_param(
    owner: str, params: Mapping[str, Any], key: str, default: str, allowed: Sequence[str]
) -> str:
    value = params.get(key, default)
    if value not in allowed:
        raise assay.AssayError(
            "INVALID_CONFIG",
            f"must be one of {', '.join(allowed)}, got {value!r}",
            f"perturbations.{owner}.{key}",
        )
    return str(value)


class Reorder:
    """Permutations of the context chunks; the decision should not change (invariance).

    Parameters: ``count`` (default 3) distinct orders, each different from the original order.
    Fewer are produced when the case has fewer distinct orders (none for a single chunk).
    """

    name = "reorder"
    signal = "invariance"
    parameters = frozenset({"count"})

    def variants(
        self,
        case: assay.PerturbationCase,
        others: Sequence[assay.PerturbationCase],
        rng: random.Random,
        params: Mapping[str, Any],
    ) -> list[assay.Variant]:
        count = _int_param(self.name, params, "count", 3, 0)
        n = len(case.chunks)
        identity = tuple(range(n))
        available = math.factorial(n) - 1
        if available <= count:
            orders = [p for p in itertools.permutations(range(n)) if p != identity]
        else:
            seen: set[tuple[int, ...]] = {identity}
            orders = []
            while len(orders) < count:
                order = list(identity)
                rng.shuffle(order)
                if tuple(order) not in seen:
                    seen.add(tuple(order))
                    orders.append(tuple(order))
        return [
            assay.Variant(
                name=f"reorder-{i}",
                perturbation=self.name,
                chunks=[case.chunks[j] for j in order],
                description="order: " + ", ".join(case.chunks[j].id for j in order),
                query=case.query,
            )
            for i, order in enumerate(orders, start=1)
        ]


class Pad:
    """Irrelevant chunks added to the context; the decision should not change (invariance).

    Parameters:
        ``count`` (default 2): how many padded variants.
        ``chunks`` (default 2): padding chunks added per variant.
        ``source`` (default ``"auto"``): ``"case"`` (the case's own padding section),
            ``"others"`` (non-key chunks of the other cases), ``"filler"`` (generated neutral
            prose), or ``"auto"`` (the first of case, others, filler that has material).
        ``position`` (default ``"random"``): where padding goes: ``"start"``, ``"end"`` or
            ``"random"`` (each padding chunk at a random position).

    :raises assay.AssayError: ``INVALID_INPUT`` (naming the case file) when ``source`` is
        ``"case"`` or ``"others"`` and there is no such material.
    """

    name = "pad"
    signal = "invariance"
    parameters = frozenset({"count", "chunks", "source", "position"})

    def variants(
        self,
        case: assay.PerturbationCase,
        others: Sequence[assay.PerturbationCase],
        rng: random.Random,
        params: Mapping[str, Any],
    ) -> list[assay.Variant]:
        count = _int_param(self.name, params, "count", 2, 0)
        per_variant = _int_param(self.name, params, "chunks", 2, 1)
        source = _choice_param(
            self.name, params, "source", "auto", ("auto", "case", "others", "filler")
        )
        position = _choice_param(
            self.name, params, "position", "random", ("start", "end", "random")
        )
        material, source = self._material(case, others, source)
        variants = []
        for i in range(1, count + 1):
            if source == "filler":
                padding = [_filler_chunk(rng, f"filler-{i}-{k}") for k in range(1, per_variant + 1)]
            else:
                padding = rng.sample(material, min(per_variant, len(material)))
            chunks = list(case.chunks)
            for chunk in padding:
                at = {"start": 0, "end": len(chunks)}.get(position)
                chunks.insert(rng.randint(0, len(chunks)) if at is None else at, chunk)
            variants.append(
                assay.Variant(
                    name=f"pad-{i}",
                    perturbation=self.name,
                    chunks=chunks,
                    description=f"added {len(padding)} {source} chunk(s) ({position}): "
                    + ", ".join(c.id for c in padding),
                    query=case.query,
                )
            )
        return variants

    @staticmethod
    def _material(
        case: assay.PerturbationCase, others: Sequence[assay.PerturbationCase], source: str
    ) -> tuple[list[assay.Chunk], str]:
        taken = {c.id for c in case.chunks}
        own = [assay.Chunk(_fresh_id(f"pad-{k}", taken), t) for k, t in enumerate(case.padding, 1)]
        foreign = [
            assay.Chunk(_fresh_id(f"{other.name}/{chunk.id}", taken), chunk.text)
            for other in others
            if other.name != case.name
            for chunk in other.chunks
            if chunk.id not in other.key_evidence
        ]
        pools = {"case": own, "others": foreign}
        if source == "auto":
            source = "case" if own else "others" if foreign else "filler"
        if source != "filler" and not pools[source]:
            raise assay.AssayError(
                "INVALID_INPUT",
                f"pad source {source!r} has no material for case {case.name!r} "
                f"({'add a ## Padding section' if source == 'case' else 'no other cases'})",
                case.source or case.name,
            )
        return pools.get(source, []), source


def _fresh_id(wanted: str, taken: set[str]) -> str:
    candidate, n = wanted, 1
    while candidate in taken:
        n += 1
        candidate = f"{wanted}~{n}"
    taken.add(candidate)
    return candidate


def _filler_chunk(rng: random.Random, chunk_id: str) -> assay.Chunk:
    words = [rng.choice(FILLER_WORDS) for _ in range(24)]
    return assay.Chunk(chunk_id, " ".join(words).capitalize() + ".")


class Swap:
    """The key evidence replaced by its counterfactual; the decision should change (sensitivity).

    Parameters: ``mode`` (default ``"all"``): ``"all"`` gives one variant with every key-evidence
    chunk swapped; ``"each"`` gives one variant per key-evidence chunk.

    :raises assay.AssayError: ``INVALID_INPUT`` (naming the case file) when the case has no key
        evidence, when counterfactuals and key-evidence ids differ in number, or when a
        key-evidence id is not among the case's chunks.
    """

    name = "swap"
    signal = "sensitivity"
    parameters = frozenset({"mode"})

    def variants(
        self,
        case: assay.PerturbationCase,
        others: Sequence[assay.PerturbationCase],
        rng: random.Random,
        params: Mapping[str, Any],
    ) -> list[assay.Variant]:
        mode = _choice_param(self.name, params, "mode", "all", ("all", "each"))
        where = case.source or case.name
        if not case.key_evidence or len(case.key_evidence) != len(case.counterfactual):
            raise assay.AssayError(
                "INVALID_INPUT",
                f"swap needs one counterfactual per key-evidence chunk; case {case.name!r} has "
                f"{len(case.key_evidence)} key-evidence id(s) and "
                f"{len(case.counterfactual)} counterfactual(s)",
                where,
            )
        ids = {c.id for c in case.chunks}
        for key in case.key_evidence:
            if key not in ids:
                raise assay.AssayError(
                    "INVALID_INPUT", f"key evidence {key!r} is not a chunk of the case", where
                )
        replacements = dict(zip(case.key_evidence, case.counterfactual, strict=True))
        groups = [case.key_evidence] if mode == "all" else [(k,) for k in case.key_evidence]
        variants = []
        for i, group in enumerate(groups, start=1):
            chunks = [
                assay.Chunk(c.id, replacements[c.id]) if c.id in group else c for c in case.chunks
            ]
            variants.append(
                assay.Variant(
                    name="swap" if mode == "all" else f"swap-{i}",
                    perturbation=self.name,
                    chunks=chunks,
                    description="counterfactual in place of " + ", ".join(group),
                    query=case.query,
                )
            )
        return variants
