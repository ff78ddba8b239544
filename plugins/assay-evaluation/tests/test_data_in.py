"""Samples from where teams keep them: JSON Lines, a JSON array, CSV, Parquet, standard input,
DataFrames, Dataset-like objects, ragas column names, column maps, unknown columns."""

from __future__ import annotations

import csv
import json
import pickle
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import assay
from assay._cli.main import build_cli
from assay_evaluation import (
    SampleFieldWarning,
    batch_to_wire,
    evaluate,
    evaluate_batch,
    has_question,
    read_samples,
)

sys.path.insert(0, str(Path(__file__).parent))

ROOT = Path(__file__).resolve().parents[3]
RAGAS = ROOT.parent / "shared" / "data" / "evaluator-outputs" / "ragas_outputs.json"
HALUEVAL = ROOT.parent / "shared" / "data" / "halueval_qa_dev.jsonl"


def _ragas_samples() -> list[dict]:
    if not RAGAS.exists():
        pytest.skip("needs ../shared/data/evaluator-outputs/ragas_outputs.json")
    return json.loads(RAGAS.read_text("utf-8"))["samples"]


def _halueval(n: int) -> list[dict]:
    """The first ``n`` HaluEval rows as samples (the right answer, its knowledge passage)."""
    if not HALUEVAL.exists():
        pytest.skip("needs ../shared/data/halueval_qa_dev.jsonl")
    rows = [json.loads(line) for line in HALUEVAL.read_text("utf-8").splitlines()[:n]]
    return [
        {
            "id": f"h{i}",
            "question": row["question"].strip(),
            "answer": row["right_answer"],
            "contexts": [row["knowledge"]],
            "groundTruth": row["right_answer"],
        }
        for i, row in enumerate(rows)
    ]


@pytest.fixture(scope="module")
def registry():
    pytest.importorskip("assay_faithfulness", reason="needs the assay-faithfulness plugin")
    return assay.build_registry(env={"ASSAY_PLUGINS": "faithfulness"})


def test_ragas_column_names_are_recognised(registry):
    samples = _ragas_samples()
    read = read_samples(samples)  # reference_contexts and the id columns are skipped quietly
    assert read[1].question == samples[1]["user_input"]
    assert read[1].answer == samples[1]["response"]
    assert read[1].contexts == tuple(samples[1]["retrieved_contexts"])
    assert read[1].ground_truth == "Delhi"
    batch = evaluate_batch(samples, ["answer_correctness"], registry=registry)
    assert batch.results[0].metrics["answer_correctness"].score == 1.0  # same words


def test_older_ragas_names_and_a_column_map():
    rows = [{"question": "q?", "answer": "a", "contexts": ["c"], "ground_truth": "a"}]
    assert read_samples(rows)[0].ground_truth == "a"
    mapped = read_samples(
        [{"prompt": "q?", "output": "a", "docs": ["c"], "gold": "a"}],
        column_map={
            "question": "prompt",
            "answer": "output",
            "contexts": "docs",
            "ground_truth": "gold",
        },
    )
    assert (mapped[0].question, mapped[0].answer, mapped[0].ground_truth) == ("q?", "a", "a")
    with pytest.raises(assay.AssayError) as caught:
        read_samples(
            [{"prompt": "q", "answer": "a", "contexts": []}], column_map={"question": "promt"}
        )
    assert caught.value.code == "INVALID_OPTION"
    assert "did you mean 'prompt'?" in caught.value.message
    with pytest.raises(assay.AssayError) as caught:
        read_samples([], column_map={"questoin": "prompt"})
    assert (caught.value.code, caught.value.path) == ("INVALID_OPTION", "column_map.questoin")
    assert "did you mean 'question'?" in caught.value.message


def test_unknown_columns_warn_once_with_a_did_you_mean_or_fail_when_strict():
    rows = [{"questoin": "q", "answer": "a", "contexts": []}] * 3
    with pytest.warns(SampleFieldWarning) as caught:
        samples = read_samples(rows)
    assert len(caught) == 1
    assert str(caught[0].message) == (
        "samples[0].questoin: unknown field 'questoin' (did you mean 'question'?); ignored "
        "(map it with column_map / --map)"
    )
    assert not has_question(samples[0])
    with pytest.raises(assay.AssayError) as error:
        read_samples(rows, strict=True)
    assert (error.value.code, error.value.path) == ("INVALID_SAMPLE", "samples[0].questoin")


def test_two_columns_for_one_field_are_refused():
    with pytest.raises(assay.AssayError) as caught:
        read_samples([{"question": "q", "user_input": "q2", "answer": "a", "contexts": []}])
    assert caught.value.code == "INVALID_SAMPLE"
    assert "columns 'question' and 'user_input' both give the question" in caught.value.message


def _write_csv(path: Path, rows: list[dict], contexts_cell) -> None:
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, ["id", "question", "answer", "contexts", "reference"])
        writer.writeheader()
        for row in rows:
            writer.writerow(
                {
                    "id": row["id"],
                    "question": row["question"],
                    "answer": row["answer"],
                    "contexts": contexts_cell(row["contexts"]),
                    "reference": row["groundTruth"],
                }
            )


def test_csv_jsonl_json_array_and_parquet_give_the_same_batch(registry, tmp_path):
    samples = _halueval(12)
    samples[3]["question"] = ""  # an empty cell in a table is a sample without a question
    jsonl = tmp_path / "s.jsonl"
    jsonl.write_text("".join(json.dumps(s) + "\n" for s in samples), encoding="utf-8")
    array = tmp_path / "s.json"
    array.write_text(json.dumps(samples), encoding="utf-8")
    as_csv = tmp_path / "s.csv"
    _write_csv(as_csv, samples, json.dumps)
    split = tmp_path / "split.csv"
    _write_csv(split, samples, lambda contexts: " || ".join(contexts))
    pq = pytest.importorskip("pyarrow.parquet", reason="needs pyarrow (the parquet extra)")
    pa = pytest.importorskip("pyarrow")
    parquet = tmp_path / "s.parquet"
    pq.write_table(pa.Table.from_pylist(samples), parquet)

    metrics = ["faithfulness", "answer_relevance", "answer_correctness"]
    table_batches = [evaluate_batch(path, metrics, registry=registry) for path in (as_csv, parquet)]
    table_batches.append(
        evaluate_batch(split, metrics, registry=registry, contexts_separator=" || ")
    )
    reference = batch_to_wire(table_batches[0])
    assert all(batch_to_wire(b) == reference for b in table_batches[1:])
    no_question = table_batches[0].results[3].metrics["answer_relevance"]
    assert no_question.score is None and "needs the sample's question" in no_question.explanation
    assert table_batches[0].results[3].metrics["faithfulness"].score is not None

    explicit = evaluate_batch(jsonl, metrics, registry=registry)  # "question": "" as written
    assert batch_to_wire(evaluate_batch(array, metrics, registry=registry)) == batch_to_wire(
        explicit
    )
    assert explicit.results[3].metrics["answer_relevance"].score == 0.0  # as rag-eval-node-ts
    for i in (0, 5, 11):
        assert explicit.results[i].metrics == table_batches[0].results[i].metrics


def test_dataframes_and_dataset_like_objects(registry):
    samples = _halueval(4)
    pandas = pytest.importorskip("pandas", reason="needs pandas (the pandas extra)")
    frame = pandas.DataFrame(samples)
    frame.loc[1, "groundTruth"] = None  # a gap: NaN in the frame, no ground truth here
    direct = evaluate_batch(samples, ["answer_correctness"], registry=registry)
    from_frame = evaluate_batch(frame, ["answer_correctness"], registry=registry)
    assert from_frame.results[1].metrics["answer_correctness"].score is None
    assert from_frame.results[2].metrics == direct.results[2].metrics

    class Dataset:
        """What a Hugging Face ``datasets.Dataset`` offers (the package is not a dependency):
        ``column_names``, iteration over row dicts and a columnar ``to_dict()``."""

        def __init__(self, rows):
            self.rows = rows
            self.column_names = list(rows[0])

        def __iter__(self):
            return iter(self.rows)

        def to_dict(self):
            return {name: [row[name] for row in self.rows] for name in self.column_names}

    dataset = Dataset(samples)
    assert batch_to_wire(evaluate_batch(dataset, ["answer_correctness"], registry=registry)) == (
        batch_to_wire(direct)
    )
    columns = evaluate_batch(dataset.to_dict(), ["answer_correctness"], registry=registry)
    assert batch_to_wire(columns) == batch_to_wire(direct)
    with pytest.raises(assay.AssayError) as caught:
        evaluate_batch({"question": ["q"], "answer": "a"}, registry=registry)
    assert caught.value.code == "INVALID_SAMPLE"


@pytest.mark.parametrize(
    ("name", "text", "code", "path"),
    [
        ("bad.csv", 'question,answer,contexts\nq,a,"[1,"\n', "INVALID_CONTEXTS", "row 1.contexts"),
        ("bad.csv", "question,answer,contexts\nq,a,c,extra\n", "MALFORMED_INPUT", "row 1"),
        ("bad.json", '{"question": "q"}', "MALFORMED_INPUT", None),
        ("bad.parquet", "not parquet", "MALFORMED_INPUT", None),
        ("bad.csv", "question,contexts\nq,[]\n", "MISSING_ANSWER", "row 1.answer"),
    ],
)
def test_bad_files_give_coded_errors_naming_the_row(tmp_path, name, text, code, path):
    target = tmp_path / name
    target.write_text(text, encoding="utf-8")
    with pytest.raises(assay.AssayError) as caught:
        read_samples(target, format="json" if name == "bad.json" else None)
    assert caught.value.code == code
    assert caught.value.path == (path or str(target))


def test_evaluate_accepts_ragas_names_for_one_sample(registry):
    result = evaluate(
        {"user_input": "Who?", "response": "Delhi", "retrieved_contexts": [], "reference": "Delhi"},
        ["answer_correctness"],
        registry=registry,
    )
    assert result.metrics["answer_correctness"].score == 1.0


# ----------------------------------------------------------------------------- assay eval
@pytest.mark.usefixtures("toy_default_registry")
def test_cli_reads_standard_input_in_any_format_and_maps_columns():
    rows = [{"prompt": "q?", "answer": "alpha beta", "contexts": ["c"], "extra": 1}] * 2
    text = "prompt,answer,contexts,extra\n" + 'q?,alpha beta,"[""c""]",1\n' * 2
    for stdin, args in (
        (json.dumps(rows), ()),
        ("\n".join(json.dumps(r) for r in rows), ()),
        (text, ()),
        (text, ("--format", "csv")),
    ):
        result = CliRunner().invoke(
            build_cli(),
            ["eval", "-", "--metrics", "word_count", "--map", "question=prompt", "--json", *args],
            input=stdin,
        )
        assert result.exit_code == 1, result.output
        assert result.stderr.splitlines() == [
            "warning [UNKNOWN_FIELD] samples[0].extra: unknown field 'extra'; ignored (map it "
            "with column_map / --map)"
            if stdin.startswith("[")
            else f"warning [UNKNOWN_FIELD] {'line' if stdin.startswith('{') else 'row'} 1.extra: "
            "unknown field 'extra'; ignored (map it with column_map / --map)"
        ]
        first = json.loads(result.stdout.splitlines()[0])
        assert first["metrics"]["word_count"]["score"] == pytest.approx(0.2)
    strict = CliRunner().invoke(build_cli(), ["eval", "-", "--strict"], input=json.dumps(rows))
    assert strict.exit_code == 2
    assert strict.stderr.startswith("error [INVALID_SAMPLE] samples[0].prompt: unknown field")


@pytest.mark.usefixtures("toy_default_registry")
def test_cli_empty_input_in_any_format_exits_2(tmp_path):
    for name, text in (("e.jsonl", ""), ("e.json", "[]"), ("e.csv", "question,answer,contexts\n")):
        (tmp_path / name).write_text(text, encoding="utf-8")
        result = CliRunner().invoke(build_cli(), ["eval", str(tmp_path / name)])
        assert result.exit_code == 2
        assert "no samples" in result.stderr


def test_no_warning_for_the_json_input_format(recwarn):
    read_samples([{"question": "q", "answer": "a", "contexts": [], "groundTruth": "g", "id": 1}])
    assert not [w for w in recwarn if issubclass(w.category, SampleFieldWarning)]


def test_deepeval_test_case_columns_are_recognised() -> None:
    (sample,) = read_samples(
        [
            {
                "input": "Who wrote Frankenstein?",
                "actual_output": "Mary Shelley.",
                "expected_output": "Mary Shelley",
                "retrieval_context": ["Frankenstein is an 1818 novel by Mary Shelley."],
            }
        ]
    )
    assert sample.question == "Who wrote Frankenstein?"
    assert sample.answer == "Mary Shelley."
    assert sample.ground_truth == "Mary Shelley"
    assert list(sample.contexts) == ["Frankenstein is an 1818 novel by Mary Shelley."]


DEEPEVAL = RAGAS.parent / "deepeval_outputs.json"


def test_deepeval_test_results_are_read_as_they_are(registry):
    # evaluate(...).test_results of DeepEval 4.3: each field that is no sample field (name,
    # success, metrics_data, ...) used to warn; only its "context" (the ideal context) does now
    if not DEEPEVAL.exists():
        pytest.skip("needs ../shared/data/evaluator-outputs/deepeval_outputs.json")
    results = json.loads(DEEPEVAL.read_text("utf-8"))["evaluate"]["test_results"]
    assert {"name", "success", "metrics_data", "metrics_data_by_alias"} <= results[0].keys()
    with pytest.warns(SampleFieldWarning) as caught:
        samples = read_samples(results)
    assert [w.message.path for w in caught] == ["samples[0].context"]
    assert [s.answer for s in samples] == [r["actual_output"] for r in results]
    assert [list(s.contexts) for s in samples] == [r["retrieval_context"] for r in results]
    assert [s.ground_truth for s in samples] == [r["expected_output"] for r in results]
    batch = evaluate_batch(samples, ["claim_support"], registry=registry)
    assert batch.sample_count == len(results)


def _ragas_result_records() -> list[dict]:
    """The rows of a ragas result's ``to_pandas()``: sample columns and score columns."""
    if not RAGAS.exists():
        pytest.skip("needs ../shared/data/evaluator-outputs/ragas_outputs.json")
    return json.loads(RAGAS.read_text("utf-8"))["evaluate"]["to_pandas"]["records"]


def test_a_ragas_result_exported_by_pandas_reads_like_its_json(registry, tmp_path, recwarn):
    # result.to_pandas().to_csv() writes list cells as Python lists: ['a', "b's"]
    pd = pytest.importorskip("pandas")
    records = _ragas_result_records()
    path = tmp_path / "ragas.csv"
    pd.DataFrame(records).to_csv(path, index=False)
    assert "['" in path.read_text("utf-8")  # the cells really are Python reprs
    from_csv = read_samples(path)
    assert [s.contexts for s in from_csv] == [tuple(r["retrieved_contexts"]) for r in records]
    assert [s.question for s in from_csv] == [r["user_input"] for r in records]
    from_csv_batch = evaluate_batch(path, ["claim_support"], registry=registry)
    from_json_batch = evaluate_batch(records, ["claim_support"], registry=registry)
    assert (
        batch_to_wire(from_csv_batch)["aggregates"] == batch_to_wire(from_json_batch)["aggregates"]
    )
    # its score columns (rouge_score(mode=fmeasure), bleu_score, ...) are skipped quietly
    assert not [w for w in recwarn if issubclass(w.category, SampleFieldWarning)]


@pytest.mark.parametrize(
    "cell",
    ["['a', 3]", "['unclosed", "[__import__('os')]", "[b'bytes']"],
)
def test_a_contexts_cell_that_is_no_list_of_strings_says_what_it_looks_like(tmp_path, cell):
    path = tmp_path / "bad.csv"
    with path.open("w", newline="", encoding="utf-8") as handle:
        csv.writer(handle).writerows([["question", "answer", "contexts"], ["q", "a", cell]])
    with pytest.raises(assay.AssayError) as caught:
        read_samples(path)
    assert (caught.value.code, caught.value.path) == ("INVALID_CONTEXTS", "row 1.contexts")
    assert caught.value.message.startswith(f"the cell starts like a list ({cell!r})")
    assert "JSON array (json.dumps)" in caught.value.message


def test_ragas_score_columns_are_quiet_and_a_typo_still_warns():
    rows = [
        {
            "questoin": "q",
            "answer": "a",
            "contexts": [],
            "faithfulness": 0.5,
            "rouge_score(mode=fmeasure)": 0.1,
            "factual_correctness(mode=f1)": 1.0,
        }
    ]
    with pytest.warns(SampleFieldWarning) as caught:
        read_samples(rows)
    assert [w.message.path for w in caught] == ["samples[0].questoin"]
    shown = caught[0].message
    for copy in (pickle.loads(pickle.dumps(shown)), SampleFieldWarning(*shown.args)):
        assert (copy.message, copy.path, str(copy)) == (shown.message, shown.path, str(shown))


def _one_record_everywhere(tmp_path: Path, record: dict) -> dict[str, object]:
    """``record`` as a JSON Lines file, a JSON array file and a list of mappings."""
    jsonl = tmp_path / "one.jsonl"
    jsonl.write_text(json.dumps(record) + "\n", encoding="utf-8")
    array = tmp_path / "one.json"
    array.write_text(json.dumps([record]), encoding="utf-8")
    return {"line 1": jsonl, "samples[0]": array, "samples[0] ": [record]}


@pytest.mark.parametrize(
    ("contexts", "says"),
    [
        ("one passage", 'got one string: wrap it in a list (["..."]) if it is one context'),
        (None, "contexts is missing: a sample needs a list of context strings ([] when"),
    ],
)
def test_json_contexts_that_are_a_string_or_missing_say_how_to_fix_them(tmp_path, contexts, says):
    record = {"question": "q", "answer": "a"}
    if contexts is not None:
        record["contexts"] = contexts
    for where, source in _one_record_everywhere(tmp_path, record).items():
        with pytest.raises(assay.AssayError) as caught:
            read_samples(source)
        assert caught.value.code == "INVALID_CONTEXTS"
        assert caught.value.path == f"{where.strip()}.contexts"
        assert says in caught.value.message
        assert "NoneType" not in caught.value.message


def test_a_table_cell_of_text_is_one_context(tmp_path):
    pd = pytest.importorskip("pandas")
    rows = [{"question": "q", "answer": "a", "contexts": "one passage"}]
    path = tmp_path / "one.csv"
    pd.DataFrame(rows).to_csv(path, index=False)
    assert read_samples(path)[0].contexts == ("one passage",)
    assert read_samples(pd.DataFrame(rows))[0].contexts == ("one passage",)
    assert read_samples({"question": ["q"], "answer": ["a"], "contexts": [""]})[0].contexts == ()


@pytest.mark.parametrize("options", [{}, {"executor": "threads", "chunkSize": 1}])
def test_a_warning_about_the_data_points_at_the_callers_line(registry, options):
    from concurrent.futures import ThreadPoolExecutor

    rows = [{"question": "q", "answer": "a", "contexts": ["c"], "labal": 1}] * 2
    with ThreadPoolExecutor(2) as pool:
        if options:
            options = {**options, "executor": pool}
        with pytest.warns(SampleFieldWarning) as caught:
            evaluate_batch(rows, ["claim_support"], options, registry=registry)
    assert len(caught) == 1
    assert caught[0].filename == __file__  # this line, not the reader's


def test_a_json_file_is_read_as_json_whatever_it_holds(tmp_path):
    """``.json`` is JSON by its extension: an array, or one object per line; text that is not
    JSON is a JSON error at its line, not a guess at another format."""
    sample = {"question": "q", "answer": "Paris", "contexts": ["Paris is in France."]}
    array, lines, table = tmp_path / "a.json", tmp_path / "l.json", tmp_path / "t.json"
    array.write_text(json.dumps([sample]), encoding="utf-8")
    lines.write_text(json.dumps(sample) + "\n" + json.dumps(sample) + "\n", encoding="utf-8")
    table.write_text('question,answer,contexts\nq,a,"[""c""]"\n', encoding="utf-8")
    assert [s.answer for s in read_samples(array)] == ["Paris"]
    assert [s.answer for s in read_samples(lines)] == ["Paris", "Paris"]
    with pytest.raises(assay.AssayError) as caught:
        read_samples(table)
    assert caught.value.code == "MALFORMED_INPUT" and "not valid JSON" in caught.value.message


def _renamed_halueval_frame(n: int):
    pd = pytest.importorskip("pandas")
    return pd.DataFrame(
        {
            "query": [s["question"] for s in _halueval(n)],
            "generated": [s["answer"] for s in _halueval(n)],
            "docs": [s["contexts"] for s in _halueval(n)],
            "kind": ["right"] * n,
        }
    )


@pytest.mark.parametrize(
    ("column_map", "code", "field", "unrecognised"),
    [
        ({}, "MISSING_ANSWER", "answer", "query, generated, docs, kind"),
        ({"question": "query"}, "MISSING_ANSWER", "answer", "generated, docs, kind"),
        ({"answer": "generated"}, "INVALID_CONTEXTS", "contexts", "query, docs, kind"),
    ],
)
def test_a_table_whose_answer_or_contexts_column_has_another_name_says_which_to_map(
    tmp_path, column_map, code, field, unrecognised
):
    # "row 1.answer: the sample has no answer" did not say that the column was not found, nor
    # which of the columns might hold it
    frame = _renamed_halueval_frame(3)
    path = tmp_path / "outputs.csv"
    frame.to_csv(path, index=False)
    for data in (frame, path):
        with pytest.raises(assay.AssayError) as caught:
            read_samples(data, column_map=column_map)
        assert caught.value.code == code
        assert caught.value.path == ("row 1" if data is path else "samples[0]") + f".{field}"
        none = " (a sample without contexts has [] in JSON)" if field == "contexts" else ""
        assert caught.value.message == (
            f"no column gives the {field}: map the one that holds it with --map {field}=COLUMN "
            f"(column_map={{'{field}': COLUMN}} in Python); columns not recognised: "
            f"{unrecognised}{none}"
        )
    mapped = {"question": "query", "answer": "generated", "contexts": "docs"}
    with pytest.warns(SampleFieldWarning, match="'kind'"):
        samples = read_samples(path, column_map=mapped)
    assert [s.answer for s in samples] == [s["answer"] for s in _halueval(3)]


def test_a_missing_column_named_in_another_case_gets_a_did_you_mean(tmp_path):
    path = tmp_path / "cased.csv"
    path.write_text('Question,Answer,Contexts\nq,Paris,"[""Paris is in France.""]"\n', "utf-8")
    with pytest.raises(assay.AssayError) as caught:
        read_samples(path)
    assert caught.value.code == "MISSING_ANSWER"
    assert caught.value.message.startswith("no column gives the answer (did you mean 'Answer'?)")


def test_a_sample_without_an_answer_among_known_fields_keeps_its_own_message():
    # nothing unrecognised: the sample simply has no answer
    with pytest.raises(assay.AssayError) as caught:
        read_samples([{"question": "q", "contexts": []}])
    assert (caught.value.code, caught.value.path) == ("MISSING_ANSWER", "samples[0].answer")
    assert caught.value.message == "the sample has no answer"


@pytest.mark.parametrize(
    ("column", "hint"),
    [
        ("kind", ""),  # was "did you mean 'id'?": two shared letters are no misspelling
        ("label", ""),
        ("run_id", ""),
        ("questoin", " (did you mean 'question'?)"),
        ("Question", " (did you mean 'question'?)"),
        ("ID", " (did you mean 'id'?)"),
        ("retrieved_context", " (did you mean 'retrieved_contexts'?)"),
        ("output", " (did you mean 'actual_output'?)"),
        ("truth", " (did you mean 'ground_truth'?)"),
        ("meta", " (did you mean 'metadata'?)"),
    ],
)
def test_an_unknown_column_gets_a_did_you_mean_only_when_it_looks_like_a_typo(column, hint):
    rows = [{"question": "q", "answer": "a", "contexts": [], column: "x"}]
    with pytest.warns(SampleFieldWarning) as caught:
        read_samples(rows)
    assert str(caught[0].message) == (
        f"samples[0].{column}: unknown field {column!r}{hint}; ignored (map it with "
        "column_map / --map)"
    )


@pytest.mark.parametrize(("name", "sep"), [("semicolons.csv", ";"), ("tabs.tsv", "\t")])
def test_a_table_separated_by_semicolons_or_tabs_reads_like_its_csv(tmp_path, name, sep):
    # a spreadsheet's export in a locale with a decimal comma (;) or as tab-separated text was
    # read as one column named 'id;question;...' and refused for a missing answer
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame(_halueval(5))
    comma, other = tmp_path / "comma.csv", tmp_path / name
    frame.to_csv(comma, index=False)
    frame.to_csv(other, index=False, sep=sep)
    assert read_samples(other) == read_samples(comma)
    assert [s.answer for s in read_samples(other)] == [s["answer"] for s in _halueval(5)]
    assert read_samples(other, format="csv") == read_samples(comma)


def test_a_compressed_file_says_so_instead_of_not_utf_8(tmp_path):
    import gzip
    import zipfile

    rows = "".join(json.dumps(s) + "\n" for s in _halueval(3)).encode()
    packed = tmp_path / "outputs.jsonl.gz"
    packed.write_bytes(gzip.compress(rows))
    with pytest.raises(assay.AssayError) as caught:
        read_samples(packed)
    assert (caught.value.code, caught.value.path) == ("MALFORMED_INPUT", str(packed))
    assert caught.value.message.startswith(f"{packed} is gzip-compressed: decompress it first")
    workbook = tmp_path / "outputs.xlsx"
    with zipfile.ZipFile(workbook, "w") as archive:
        archive.writestr("xl/workbook.xml", "<workbook/>")
    with pytest.raises(assay.AssayError) as caught:
        read_samples(workbook)
    assert caught.value.message.startswith(f"{workbook} is a zip archive (an Excel workbook")
    (tmp_path / "latin1.csv").write_bytes(
        "question,answer,contexts\ncaf\xe9,a,c\n".encode("latin-1")
    )
    with pytest.raises(assay.AssayError) as caught:
        read_samples(tmp_path / "latin1.csv")
    assert "is not UTF-8 text" in caught.value.message


@pytest.mark.usefixtures("toy_default_registry")  # a metric to run without other plugins
def test_one_json_object_over_several_lines_is_named_with_its_keys(tmp_path):
    # ragas_outputs.json (a wrapper holding "samples") was refused as
    # "line 1: not valid JSON: Expecting property name enclosed in double quotes"
    if not RAGAS.exists():
        pytest.skip("needs ../shared/data/evaluator-outputs/ragas_outputs.json")
    with pytest.raises(assay.AssayError) as caught:
        read_samples(RAGAS)
    assert (caught.value.code, caught.value.path) == ("MALFORMED_INPUT", str(RAGAS))
    assert caught.value.message.startswith(
        f"{RAGAS} holds one JSON object over several lines (keys: ragas_version, "
    )
    assert "the samples may be the list under 'samples'" in caught.value.message
    pretty = tmp_path / "one.json"
    pretty.write_text(json.dumps(_halueval(1)[0], indent=2), encoding="utf-8")
    for workers in (0, 2):
        command = ["eval", str(pretty), "--metrics", "word_count", "--workers", str(workers)]
        result = CliRunner().invoke(build_cli(), command)
        assert result.exit_code == 2
        assert result.stderr.startswith(
            f"error [MALFORMED_INPUT] {pretty}: {pretty} holds one JSON object over several "
            "lines (keys: id, question, answer, contexts, groundTruth), not samples: it looks "
            "like one sample"
        )
    broken = tmp_path / "broken.jsonl"
    broken.write_text('{"answer": "a"\n{"answer": "b"}\n', encoding="utf-8")
    with pytest.raises(assay.AssayError) as caught:
        read_samples(broken)
    assert (caught.value.path, caught.value.message) == (
        "line 1",
        "not valid JSON: Expecting ',' delimiter",
    )


def test_an_empty_answer_cell_is_an_empty_answer_that_fails_not_a_stopped_run(registry, tmp_path):
    # one question the pipeline answered with nothing stopped the whole run (exit 2,
    # MISSING_ANSWER) as if the data were malformed; it is a quality failure (exit 1)
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame(_halueval(6))
    frame.loc[2, "answer"] = ""
    path = tmp_path / "outputs.csv"
    frame.to_csv(path, index=False)
    assert ",," in path.read_text("utf-8")  # pandas writes the empty answer as an empty cell
    for data in (path, frame):
        samples = read_samples(data)
        assert samples[2].answer == "" and samples[3].answer == _halueval(6)[3]["answer"]
    batch = evaluate_batch(path, ["claim_support"], registry=registry)
    empty = batch.results[2]
    assert empty.metrics["claim_support"].score is None and empty.passed is False
    assert [r.passed for r in batch.results].count(False) >= 1
    result = CliRunner().invoke(build_cli(), ["eval", str(path), "--metrics", "claim_support"])
    assert result.exit_code == 1, result.stderr
    assert "samples passing overall: " in result.stdout
    # a sample of the JSON input format without an answer is still refused
    with pytest.raises(assay.AssayError) as caught:
        read_samples([{"question": "q", "contexts": []}])
    assert caught.value.code == "MISSING_ANSWER"
