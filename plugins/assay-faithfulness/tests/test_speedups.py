"""The compiled twins of the text kernels (``assay_faithfulness._speedups``) give exactly what the
pure-Python reference gives.

The kernels are compared one by one in this process on every text, sentence, token list, n-gram
set and TF-IDF side of ../shared/conformance/metrics (samples.jsonl and primitives.jsonl, read in
place) and on edge cases; then every metric vector and primitive vector is computed twice, here
(compiled twins in use) and in a subprocess with ``ASSAY_PURE_PYTHON=1`` (none in use), and the
two outputs, with every float's repr, must be identical.
"""

from __future__ import annotations

import gc
import json
import os
import subprocess
import sys
from collections import Counter, OrderedDict
from pathlib import Path
from typing import Any

import pytest

import assay
import assay_faithfulness as af
from assay_faithfulness import features, jsnumbers, ngrams, text, tfidf

VECTORS = Path(__file__).resolve().parents[3].parent / "shared/conformance/metrics"
# a clone without the shared folder beside it skips the tests that read the vectors, naming them
needs_vectors = pytest.mark.skipif(
    not VECTORS.is_dir(),
    reason="needs ../shared/conformance/metrics "
    "(the shared data folder beside the repo; CI has it)",
)


def _speedups_in_use() -> bool:
    """Whether the one switch (:func:`assay.load_speedups`; ``ASSAY_PURE_PYTHON``) gives this
    plugin its compiled kernels."""
    return assay.load_speedups("assay_faithfulness._speedups") is not None


EDGE_TEXTS = [
    "",
    " ",
    "\t\n\u2028\ufeff",
    "...",
    "!?,;:()[]{}",
    "«»‘’“”—–-_",
    "a",
    "A.",
    "C++ and C#",
    "a\u0085b",
    "a\ufeffb",
    "𝐀𐄀b",  # an astral letter, an astral punctuation mark
    "👍🏽 ok 👍🏽",
    "\U0001f600\U0010ffff\U00010000",
    "İstanbul ΣΑΣ ß ǅ",  # lowercasing changes the length
    "\ud800 lone \udfff surrogates",
    "x\u00a0y\u3000z\u205fw",
    "3.14 e.g. the U.S.A. Mr. Smith. Next!",
    ("The quick brown fox, said the report, jumps over 42 lazy dogs. " * 5000),
    "".join(chr(cp) for cp in range(0x20, 0x3000)),
]


def _read(name: str) -> list[dict[str, Any]]:
    # "\n" only: the vectors hold U+2028 / U+0085 that str.splitlines() would break on
    lines = (VECTORS / name).read_text(encoding="utf-8").split("\n")
    return [json.loads(line) for line in lines if line]


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [s for item in value for s in _strings(item)]
    if isinstance(value, dict):
        return [s for item in value.values() for s in _strings(item)]
    return []


def _wire_samples() -> list[dict[str, Any]]:
    """The distinct well-formed samples of samples.jsonl (each is scored by several vectors)."""
    samples: dict[str, dict[str, Any]] = {}
    for vector in _read("samples.jsonl"):
        args = vector["args"][1:] if vector["fn"] == "computeMetric" else vector["args"]
        wire = args[0]
        if (
            isinstance(wire, dict)
            and isinstance(wire.get("question"), str)
            and isinstance(wire.get("answer"), str)
            and isinstance(wire.get("contexts"), list)
            and all(isinstance(c, str) for c in wire["contexts"])
        ):
            samples.setdefault(json.dumps(wire, sort_keys=True), wire)
    return list(samples.values())


def _all_texts() -> list[str]:
    texts = {s for v in _read("primitives.jsonl") for s in _strings(v["args"])}
    texts.update(s for wire in _wire_samples() for s in _strings(wire))
    texts.update(sentence for t in list(texts) for sentence in af.split_sentences(t))
    return [*sorted(texts), *EDGE_TEXTS]


@pytest.fixture(scope="module")
def compiled() -> Any:
    if not _speedups_in_use():
        pytest.skip(
            "ASSAY_PURE_PYTHON is set, so the compiled twins are not in use: unset it to compare "
            "them (CI runs without it)"
        )
    from assay_faithfulness import _speedups

    return _speedups


@pytest.fixture(scope="module")
def texts() -> list[str]:
    return _all_texts()


def test_the_compiled_twin_is_built_and_in_use() -> None:
    """A build that silently fell back to pure Python fails here (CI ships the fast path)."""
    from assay_faithfulness import _speedups

    assert _speedups.__file__ is not None
    assert _speedups.__file__.endswith((".so", ".pyd")), _speedups.__file__
    allowed = _speedups_in_use()
    assert text.COMPILED is ngrams.COMPILED is tfidf.COMPILED is allowed
    assert (ngrams.overlap_rows is _speedups.overlap_rows) is allowed
    assert (ngrams.weighted_overlaps is _speedups.weighted_overlaps) is allowed
    assert (ngrams.best_weighted_overlaps is _speedups.best_weighted_overlaps) is allowed
    assert (tfidf.pair_cosine is _speedups.pair_cosine) is allowed
    assert (jsnumbers.to_fixed3 is _speedups.to_fixed3) is allowed
    assert not hasattr(_speedups, "build_result")  # no rule is restated in compiled code


@needs_vectors
def test_tokens_are_identical(compiled: Any, texts: list[str]) -> None:
    table = text.separator_table()
    for item in texts:
        lowered = item.lower()
        got = compiled.split_tokens(lowered, table)
        assert got == text.split_tokens_pure(lowered), item[:80]
        assert all(type(token) is str for token in got)
    assert af.tokenize("Hello, World!") == ["hello", "world"]
    with pytest.raises(ValueError, match="every code point"):
        compiled.split_tokens("a", b"\x00")


@needs_vectors
def test_text_profiles_are_identical(compiled: Any, texts: list[str]) -> None:
    table = text.separator_table()
    for item in texts:
        lowered = item.lower()
        for with_counts in (True, False):
            got = compiled.text_profile(lowered, table, with_counts)
            want = features.text_profile_pure(lowered, with_counts)
            assert got == want, item[:80]
            tokens, counts, unigrams, bigrams = got
            assert all(type(token) is str for token in tokens)
            if with_counts:
                assert type(counts) is Counter and list(counts.items()) == list(want[1].items())
            assert type(unigrams) is type(bigrams) is frozenset
            assert not gc.is_tracked(unigrams) and not gc.is_tracked(bigrams)
    with pytest.raises(ValueError, match="every code point"):
        compiled.text_profile("a", b"\x00", True)


@needs_vectors
def test_bigram_sets_are_identical(compiled: Any, texts: list[str]) -> None:
    for item in texts:
        tokens = af.tokenize(item)
        assert compiled.bigram_set(tokens) == ngrams.bigram_set_pure(tokens), item[:80]
        assert ngrams.ngram_set(tokens, 2) == ngrams.bigram_set_pure(tokens)

    class Word(str):
        pass

    words = [Word("a"), "b", Word("c")]
    assert compiled.bigram_set(words) == ngrams.bigram_set_pure(words) == {"a b", "b c"}
    for bad in (["a", 1], [None, "b"]):
        with pytest.raises(TypeError) as pure_error:
            ngrams.bigram_set_pure(bad)
        with pytest.raises(TypeError) as compiled_error:
            compiled.bigram_set(bad)
        assert str(compiled_error.value) == str(pure_error.value)


@needs_vectors
def test_sentences_are_identical(compiled: Any, texts: list[str]) -> None:
    for item in texts:
        assert compiled.split_sentences(item) == text.split_sentences_pure(item), item[:80]
    # every BMP code point (all JavaScript whitespace is there) and a sample of the others, as
    # the whitespace after a mark and around a sentence
    for cp in [*range(0x10000), *range(0x10000, sys.maxunicode + 1, 251), sys.maxunicode]:
        char = chr(cp)
        for item in (f"x.{char}Y", f"{char}a{char}", f"a!{char}{char}"):
            assert compiled.split_sentences(item) == text.split_sentences_pure(item), hex(cp)


@needs_vectors
def test_string_sets_are_identical_and_untracked(compiled: Any, texts: list[str]) -> None:
    for item in texts:
        tokens = af.tokenize(item)
        unigrams = compiled.string_set(tokens)
        assert unigrams == frozenset(tokens) == ngrams.ngram_set(tokens, 1)
        assert type(unigrams) is frozenset
        assert not gc.is_tracked(unigrams)
        assert not gc.is_tracked(compiled.bigram_set(tokens))
    assert compiled.string_set(Counter(["b", "a", "b"])) == {"a", "b"}
    mixed = compiled.string_set(["a", ("b",)])  # a tuple could hold a cycle: stays tracked
    assert mixed == {"a", ("b",)} and gc.is_tracked(mixed)


@needs_vectors
def test_token_counts_are_identical(compiled: Any, texts: list[str]) -> None:
    for item in texts:
        tokens = af.tokenize(item)
        got = compiled.count_tokens(tokens)
        assert type(got) is Counter
        assert list(got.items()) == list(Counter(tokens).items())
        assert tfidf.count_tokens(tuple(tokens)) == got


def test_to_fixed3_is_identical(compiled: Any) -> None:
    import random

    rng = random.Random(4)
    values: list[Any] = [0.0, -0.0, 0.0625, 0.3125, 0.5625, -0.0625, 1 / 3, -1 / 3, -0.0004]
    values += [0.0005, 0.9995, 1e300, 5e-324, 2**0.5, 1, 0, -2, True]
    values += [float("nan"), float("inf"), float("-inf")]
    values += [k / 16 for k in range(-40, 40)] + [k / 1000 for k in range(-1200, 1200)]
    values += [rng.random() for _ in range(5000)] + [rng.uniform(-1e6, 1e6) for _ in range(500)]
    for value in values:
        assert compiled.to_fixed3(value) == jsnumbers.PURE_TO_FIXED3(value), repr(value)


def _sets(texts: list[str], n: int) -> list[frozenset[Any]]:
    return [ngrams.ngram_set(af.tokenize(t), n) for t in texts]


WEIGHTS: list[tuple[float, ...]] = [
    (0.7, 0.3),
    (1, 2),
    (0.6, 0.5),
    (0.5,),
    (0.2, 0.3, 0.5),
    (1.0, -1.0),  # sums to 0
    (-0.25, 1e-300, 3.0),
    (),
]


@needs_vectors
def test_overlaps_are_identical(compiled: Any) -> None:
    for wire in _wire_samples():
        contexts = wire["contexts"]
        sentences = af.split_sentences(wire["answer"])
        truths = af.split_sentences(wire.get("groundTruth") or "")
        by_size = []
        for n in (1, 2, 3):
            for part in (sentences, truths, [wire["question"]], [], [""]):
                a, b = _sets(part, n), _sets(contexts, n)
                rows = compiled.overlap_rows(a, b)
                assert repr(rows) == repr(ngrams.PURE_OVERLAP_ROWS(a, b))
                assert repr(compiled.overlap_rows(tuple(b), a)) == repr(
                    ngrams.PURE_OVERLAP_ROWS(b, a)
                )
            by_size.append(ngrams.PURE_OVERLAP_ROWS(_sets([wire["question"]], n), b)[0])
        sentence_rows = [
            ngrams.PURE_OVERLAP_ROWS(_sets(sentences, n), _sets(contexts, n)) for n in (1, 2, 3)
        ]
        for weights in WEIGHTS:
            rows = by_size[: len(weights)]
            got = compiled.weighted_overlaps(rows, weights, len(contexts))
            assert repr(got) == repr(ngrams.PURE_WEIGHTED_OVERLAPS(rows, weights, len(contexts)))
            args = (sentence_rows[: len(weights)], weights, len(sentences), len(contexts))
            got = compiled.best_weighted_overlaps(*args)
            assert repr(got) == repr(ngrams.PURE_BEST_WEIGHTED_OVERLAPS(*args))


@needs_vectors
def test_tfidf_cosines_are_identical(compiled: Any, texts: list[str]) -> None:
    sides = [tfidf.pair_side(Counter(tokens), len(tokens)) for tokens in map(af.tokenize, texts)]
    for wire in _wire_samples():
        question_tokens = af.tokenize(wire["question"])
        question = tfidf.pair_side(Counter(question_tokens), len(question_tokens))
        for other in [wire["answer"], *wire["contexts"], ""]:
            tokens = af.tokenize(other)
            side = tfidf.pair_side(Counter(tokens), len(tokens))
            for a, b in ((question, side), (side, question)):
                assert repr(compiled.pair_cosine(a, b)) == repr(tfidf.PURE_PAIR_COSINE(a, b))
    for a, b in zip(sides, sides[1:] + sides[:1], strict=True):
        assert repr(compiled.pair_cosine(a, b)) == repr(tfidf.PURE_PAIR_COSINE(a, b))
    mapping = OrderedDict([("a", 2), ("b", 1)])  # any mapping, not only dicts
    a, b = tfidf.pair_side(mapping, 3), tfidf.pair_side({"b": 1, "c": 1}, 2)
    assert compiled.pair_cosine(a, b) == tfidf.PURE_PAIR_COSINE(a, b) > 0


def everything() -> list[Any]:
    """Every metric vector (the whole result in its wire shape) and every primitive vector, with
    each float's repr, computed by whichever implementation this process uses."""

    def exact(value: Any) -> Any:
        if isinstance(value, float):
            return repr(value)
        if isinstance(value, dict):
            return {k: exact(v) for k, v in value.items()}
        if isinstance(value, list | tuple):
            return [exact(v) for v in value]
        return value

    out: list[Any] = []
    for vector in _read("samples.jsonl"):
        args = list(vector["args"])
        metric_id = args.pop(0) if vector["fn"] == "computeMetric" else vector["fn"][5:]
        wire, options = args[0], (args[1] if len(args) > 1 else None)
        try:
            metric = af.get_metric(metric_id[0].lower() + metric_id[1:])
            sample = assay.EvalSample(
                question=wire["question"],
                answer=wire["answer"],
                contexts=wire["contexts"],
                ground_truth=wire.get("groundTruth"),
            )
            context = af.SimpleMetricContext({"heuristic": options} if options else None)
            result = metric.compute(sample, context, metric.default_threshold)
            out.append([af.result_to_wire(result), result.details])
        except assay.AssayError as error:
            out.append([error.code, error.path, str(error)])
    functions = {
        "tokenize": af.tokenize,
        "splitSentences": af.split_sentences,
        "getNgrams": af.get_ngrams,
        "ngramOverlap": af.ngram_overlap,
        "weightedNgramOverlap": af.weighted_ngram_overlap,
        "tfidfSimilarity": af.tfidf_similarity,
        "tokenF1": af.token_f1,
    }
    for vector in _read("primitives.jsonl"):
        if vector["fn"] in functions:
            out.append(functions[vector["fn"]](*vector["args"]))
    for item in EDGE_TEXTS:
        out.append([af.tokenize(item), af.weighted_ngram_overlap(item, "the fox. 42 dogs")])
        out.append([af.tfidf_similarity("fox dogs 👍🏽", item), af.ngram_overlap(item, item, 2)])
    return exact(out)


def _in_subprocess(code: str, **env: str) -> str:
    return subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, **env},
    ).stdout


@needs_vectors
def test_every_vector_gives_the_same_output_with_and_without_the_compiled_twins() -> None:
    code = (
        "import importlib.util, json, sys\n"
        f"spec = importlib.util.spec_from_file_location('twins', {str(Path(__file__))!r})\n"
        "module = importlib.util.module_from_spec(spec); spec.loader.exec_module(module)\n"
        "json.dump(module.everything(), sys.stdout)\n"
    )
    pure = json.loads(_in_subprocess(code, ASSAY_PURE_PYTHON="1"))
    here = everything()
    assert len(here) > 2464 + 300
    assert pure == here


def test_assay_pure_python_uses_the_pure_kernels() -> None:
    code = (
        "from assay_faithfulness import ngrams, text, tfidf\n"
        "print(text.COMPILED, ngrams.COMPILED, tfidf.COMPILED,\n"
        "      ngrams.overlap_rows is ngrams.PURE_OVERLAP_ROWS,\n"
        "      ngrams.weighted_overlaps is ngrams.PURE_WEIGHTED_OVERLAPS,\n"
        "      tfidf.pair_cosine is tfidf.PURE_PAIR_COSINE)\n"
    )
    assert _in_subprocess(code, ASSAY_PURE_PYTHON="1").split() == ["False"] * 3 + ["True"] * 3
    if _speedups_in_use():
        assert _in_subprocess(code).split() == ["True"] * 3 + ["False"] * 3
