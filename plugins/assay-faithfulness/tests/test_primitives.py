"""The text primitives on the rag-eval-node-ts README's own examples and on the JavaScript edge cases."""

import math

import assay_faithfulness as af
from assay_faithfulness.jsnumbers import js_log, js_number_text, to_fixed3


def test_readme_examples() -> None:
    assert af.tokenize("Hello, World!") == ["hello", "world"]
    assert af.get_ngrams(["hello", "world"], 2) == ["hello world"]
    assert af.ngram_overlap("the cat sat", "the cat ran", 1) == 0.5
    assert af.split_sentences("First sentence. Second sentence! Third?") == [
        "First sentence.",
        "Second sentence!",
        "Third?",
    ]
    assert af.filter_factual_sentences(["One two three.", "Too short"]) == ["One two three."]
    assert 0 < af.token_f1("the cat sat on the mat", "the cat sat on a rug") < 1


def test_tokenizer_keeps_symbols_and_splits_on_javascript_whitespace_only() -> None:
    assert af.tokenize("C++ and C#") == ["c++", "and", "c"]
    assert af.tokenize("a\u0085b") == ["a\u0085b"]  # U+0085 is not JavaScript whitespace
    assert af.tokenize("a\ufeffb") == ["a", "b"]  # U+FEFF is
    assert af.tokenize("𝐀𐄀b") == ["𝐀", "b"]  # an astral punctuation mark splits


def test_both_empty_ngram_sets_overlap_fully() -> None:
    assert af.ngram_overlap("one", "two", 2) == 1.0
    assert af.weighted_ngram_overlap("one", "two") == 0.3


def test_tfidf_uses_the_query_and_documents_as_corpus() -> None:
    query, (document,) = af.build_tfidf_vectors("a b", ["a c"])
    assert list(query) == ["a", "b"]
    assert query["a"] == 0.5 * (js_log(3 / 3) + 1)
    assert af.tfidf_similarity("a b", "a c") == af.cosine_similarity(query, document)


def test_v8_logarithm_and_number_formatting() -> None:
    assert js_log(3.0) == 1.0986122886681096  # V8; the C library gives ...098
    assert js_log(1.0) == 0.0
    assert math.isinf(js_log(0.0))
    assert to_fixed3(0.0625) == "0.063"
    assert to_fixed3(-0.0) == "0.000"
    assert js_number_text(1e-7) == "1e-7"
    assert js_number_text(1.0) == "1"
    assert js_number_text(0.15) == "0.15"
