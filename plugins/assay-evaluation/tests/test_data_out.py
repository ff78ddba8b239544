"""Results out: flat records, pandas, CSV / Parquet / JSON Lines files written atomically, and
the HTML report from the Python API."""

from __future__ import annotations

import csv
import json
import os
import stat
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import assay
from assay._cli.main import build_cli
from assay_evaluation import evaluate_batch, read_results

sys.path.insert(0, str(Path(__file__).parent))
from test_evaluation_toys import FunctionMetric, toy_registry, toy_samples


def _raises(sample, context, threshold):
    raise ValueError("no reply")


@pytest.fixture
def batch():
    registry = toy_registry()
    registry.register(FunctionMetric("broken", _raises))
    samples = toy_samples(4)
    samples[2] = {**samples[2], "question": None, "answer": "<b>bold</b> & more"}
    return evaluate_batch(samples, ["word_count", "truth_overlap", "broken"], registry=registry)


def _mode(path: Path) -> int:
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(path.stat().st_mode) == 0o666 & ~umask
    return umask


def test_records_flatten_every_sample(batch):
    records = batch.to_records()
    assert len(records) == 4
    first = records[0]
    assert list(first)[:5] == ["id", "question", "answer", "contexts", "ground_truth"]
    assert first["truth_overlap"] is None and first["truth_overlap_status"] == "undetermined"
    assert first["truth_overlap_reason"] == "no ground truth"
    assert first["broken_status"] == "error"
    assert first["broken_reason"] == "ValueError: no reply"
    assert first["word_count_status"] == "fail" and first["word_count_passed"] is False
    assert records[2]["question"] is None  # the sample had none
    assert [r["passed"] for r in records] == [False] * 4  # an error never passes


def test_to_pandas_or_a_clear_error_without_it(batch, monkeypatch):
    pandas = pytest.importorskip("pandas", reason="needs pandas (the pandas extra)")
    frame = batch.to_pandas()
    assert isinstance(frame, pandas.DataFrame) and frame.shape[0] == 4
    assert frame.loc[1, "word_count"] == pytest.approx(0.3)
    monkeypatch.setitem(sys.modules, "pandas", None)  # as if it were not installed
    with pytest.raises(assay.AssayError) as caught:
        batch.to_pandas()
    assert caught.value.code == "MISSING_DEPENDENCY"
    assert "pip install 'assay-evaluation[pandas]'" in caught.value.message


def test_records_need_the_results():
    lean = evaluate_batch(toy_samples(3), options={"keepResults": False}, registry=toy_registry())
    with pytest.raises(assay.AssayError) as caught:
        lean.to_records()
    assert caught.value.code == "INVALID_OPTION" and "keep_results" in caught.value.message


def test_save_by_extension_atomically(batch, tmp_path):
    table = batch.save(tmp_path / "out" / "results.csv")
    _mode(table)
    with table.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert rows[0]["contexts"] == "[]" and rows[1]["contexts"] == '["ctx"]'
    assert rows[0]["word_count_passed"] == "false" and rows[0]["truth_overlap"] == ""
    assert rows[2]["answer"] == "<b>bold</b> & more"
    stream = batch.save(tmp_path / "results.jsonl")
    assert read_results(stream) == list(batch.results)
    pq = pytest.importorskip("pyarrow.parquet", reason="needs pyarrow (the parquet extra)")
    parquet = batch.save(tmp_path / "results.parquet")
    _mode(parquet)
    assert pq.read_table(parquet).to_pylist() == batch.to_records()
    with pytest.raises(assay.AssayError) as caught:
        batch.save(tmp_path / "results.xlsx")
    assert caught.value.code == "INVALID_OPTION"


def test_html_report_from_the_api(batch, tmp_path):
    path = tmp_path / "report.html"
    html = batch.to_html(path, title="nightly <run>")
    assert path.read_text(encoding="utf-8") == html
    _mode(path)
    assert "<title>nightly &lt;run&gt;</title>" in html
    assert "&lt;b&gt;bold&lt;/b&gt; &amp; more" in html and "<b>bold</b>" not in html
    assert "<i>(no question)</i>" in html and "<dt>ground truth</dt>" in html
    assert "<dt>contexts</dt>" in html and "<li>ctx</li>" in html
    assert "broken: 4 of 4 results are errors" in html  # the verdict's reasons
    assert html.count("<svg") == 3
    for label in (">0.2<", ">0.4<", ">1<", ">score<", ">samples<"):
        assert label in html  # labelled ticks and axis titles
    assert 'class="error">error</span>' in html and "ValueError: no reply" in html
    first_section = html.split("<h2>Worst samples</h2>")[1].split("</section>")[0]
    assert "error" in first_section  # samples with an error come first


@pytest.mark.filterwarnings("error::assay_evaluation.SampleFieldWarning")
def test_a_table_of_results_reads_back_as_its_samples_without_warnings(tmp_path):
    # re-evaluating --output results.csv with other metrics warned about every score, flag,
    # status and reason column, and about composite_score and passed
    from assay_evaluation import read_samples

    samples = toy_samples(6)
    batch = evaluate_batch(samples, registry=toy_registry())
    for name in ("results.csv", "results.parquet"):
        if name.endswith(".parquet"):
            pytest.importorskip("pyarrow")
        path = tmp_path / name
        batch.save(path)
        again = read_samples(path)
        assert [s.answer for s in again] == [s["answer"] for s in samples]
        assert [list(s.contexts) for s in again] == [s["contexts"] for s in samples]


def test_html_of_a_batch_without_results_says_so_instead_of_zero_scores():
    # it showed "word_count: 0 scores" under an empty histogram and an empty "Worst samples"
    registry = toy_registry()
    lean = evaluate_batch(toy_samples(8), options={"keep_results": False}, registry=registry)
    html = lean.to_html()
    assert "0 scores" not in html and "<svg" not in html and "<section>" not in html
    assert html.count("Not shown: this batch kept no per-sample results") == 2
    assert "keep_worst=N" in html and "8 samples" in html
    kept = evaluate_batch(
        toy_samples(8), options={"keep_results": False, "keep_worst": 2}, registry=registry
    ).to_html()
    assert "Not shown" not in kept and kept.count("<section>") == 2 and "8 scores" in kept


@pytest.mark.usefixtures("toy_default_registry")
def test_cli_output_table_by_extension(tmp_path):
    data = tmp_path / "data.jsonl"
    data.write_text("".join(json.dumps(s) + "\n" for s in toy_samples(5)), encoding="utf-8")
    out = tmp_path / "results.csv"
    result = CliRunner().invoke(build_cli(), ["eval", str(data), "--output", str(out)])
    assert result.exit_code == 1
    with out.open(encoding="utf-8", newline="") as handle:
        assert [row["id"] for row in csv.DictReader(handle)] == [f"s{i}" for i in range(5)]
    resumed = CliRunner().invoke(build_cli(), ["eval", str(data), "--output", str(out), "--resume"])
    assert resumed.exit_code == 2 and "give --output a .jsonl file" in resumed.stderr
