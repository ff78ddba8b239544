import json
import sys
from pathlib import Path

import pytest

import assay
from assay_perturb import load_config, run_check
from assay_perturb.distances import numeric_distance


def check(workdir: Path, **kwargs):
    config, text = load_config(workdir / "assay-perturb.yaml")
    return run_check(config, workdir=workdir, config_text=text, **kwargs)


def test_robust_pipeline_scores_per_specification(workdir: Path) -> None:
    run = check(workdir)
    assert [c.name for c in run.cases] == ["alpha", "beta"]
    alpha = run.cases[0]
    assert alpha.baseline_decision == "approve"
    assert [o.variant for o in alpha.variants] == [
        "reorder-1",
        "reorder-2",
        "pad-1",
        "pad-2",
        "swap",
    ]
    assert alpha.invariance == 1.0 and alpha.sensitivity == 1.0
    swap = alpha.variants[-1]
    assert swap.decision == "deny" and swap.distance == 1.0
    assert (run.invariance, run.sensitivity, run.nondeterminism) == (1.0, 1.0, None)
    assert (run.invocations, run.executed, run.cached, run.failed) == (12, 12, 0, 0)


def test_run_directory_holds_config_invocations_results_and_report(workdir: Path) -> None:
    check(workdir)
    run_dir = workdir / "assay-perturb"
    assert (run_dir / "config.yaml").read_text() == (workdir / "assay-perturb.yaml").read_text()
    assert json.loads((run_dir / "config.json").read_text())["decision"]["field"] == "answer.label"
    folder = run_dir / "invocations/alpha/swap"
    assert json.loads((folder / "input.json").read_text())["chunks"][0] == {
        "id": "key",
        "text": "deny this request",
    }
    assert {p.name for p in folder.iterdir()} == {
        "input.json",
        "stdout.txt",
        "stderr.txt",
        "result.json",
    }
    results = json.loads((run_dir / "results.json").read_text())
    assert results["signals"] == {"invariance": 1.0, "sensitivity": 1.0, "nondeterminism": None}
    assert results["cases"][0]["variants"][0]["folder"] == "invocations/alpha/reorder-1"
    assert "<!DOCTYPE html>" in (run_dir / "report.html").read_text()


def test_position_biased_pipeline_loses_invariance(workdir: Path, make_case) -> None:
    make_case(workdir / "cases", "alpha", query="FIRST label?")
    run = check(workdir)
    alpha = run.cases[0]
    # the decision is the first word of the first chunk: reorders that move "key" change it
    first_words = {"key": "approve", "other": "deny", "third": "Nothing"}
    for outcome in alpha.variants[:2]:
        expected = first_words.get(outcome.chunk_ids[0], "Padding")
        assert outcome.decision == expected
        assert outcome.distance == (0.0 if expected == "approve" else 1.0)
    assert alpha.invariance is not None and alpha.invariance < 1.0


def test_failed_invocations_are_kept_and_excluded(workdir: Path, make_case) -> None:
    make_case(workdir / "cases", "alpha", query="CRASH please")
    run = check(workdir)
    alpha, beta = run.cases
    assert alpha.failed == 5 and alpha.invariance is None and alpha.sensitivity is None
    assert all(o.failure == "exit code 3" for o in alpha.variants)
    assert "boom: pipeline exploded" in alpha.variants[0].stderr_tail
    assert run.invariance == beta.invariance == 1.0 and run.failed == 5
    summary = {s.perturbation: (s.scored, s.failed) for s in run.by_perturbation}
    assert summary == {"reorder": (2, 2), "pad": (2, 2), "swap": (1, 1)}


def test_timeout_marks_failed(workdir: Path, make_case, make_config) -> None:
    make_case(workdir / "cases", "alpha", query="SLEEP please")
    make_config(workdir, perturbations="{pad: {count: 1, source: case}}")
    (workdir / "assay-perturb.yaml").write_text(
        (workdir / "assay-perturb.yaml").read_text().replace("timeout: 10", "timeout: 0.5")
    )
    run = check(workdir, only=["alpha"])
    assert run.cases[0].variants[0].failure == "timed out after 0.5 s"


def test_missing_field_and_every_baseline_failed(workdir: Path, make_config) -> None:
    make_config(workdir, field="answer.nope")
    run = check(workdir)
    assert run.all_baselines_failed
    assert "decision field 'answer.nope' is missing" in run.cases[0].baseline_runs[0].failure


def test_cache_reuses_finished_invocations_and_no_cache_forces(workdir: Path) -> None:
    first = check(workdir)
    again = check(workdir)
    assert (again.executed, again.cached) == (0, 12)
    assert [c.invariance for c in again.cases] == [c.invariance for c in first.cases]
    forced = check(workdir, use_cache=False)
    assert (forced.executed, forced.cached) == (12, 0)


def test_interrupted_run_resumes_from_finished_invocations(workdir: Path) -> None:
    check(workdir)
    # simulate an interruption: two invocations never finished (no result.json)
    for name in ("alpha/pad-2", "beta/swap"):
        (workdir / "assay-perturb/invocations" / name / "result.json").unlink()
    resumed = check(workdir)
    assert (resumed.executed, resumed.cached) == (2, 10)


def test_editing_the_pipeline_invalidates_the_cache(workdir: Path) -> None:
    check(workdir)
    script = workdir / "pipeline.py"
    script.write_text(script.read_text() + "\n# edited\n")
    assert check(workdir).executed == 12


def test_only_selects_cases_and_variants_do_not_depend_on_it(workdir: Path) -> None:
    full = check(workdir, run_dir="full")
    only = check(workdir, run_dir="only", only=["beta"])
    assert [c.name for c in only.cases] == ["beta"]
    assert [o.chunk_ids for o in only.cases[0].variants] == [
        o.chunk_ids for o in full.cases[1].variants
    ]
    with pytest.raises(assay.AssayError, match="no case named gamma"):
        check(workdir, only=["gamma"])


def test_parallel_run_gives_the_same_results(workdir: Path) -> None:
    serial = check(workdir, run_dir="serial", jobs=1)
    parallel = check(workdir, run_dir="parallel", jobs=3)
    strip = lambda d: {k: v for k, v in d.items() if k not in {"duration", "cached"}}  # noqa: E731
    assert [strip(o.to_dict()) for c in serial.cases for o in c.variants] == [
        strip(o.to_dict()) for c in parallel.cases for o in c.variants
    ]


def test_baseline_repeats_measure_nondeterminism(workdir: Path) -> None:
    # a pipeline whose answer flips on every other call (a counter file), flaky not fragile
    (workdir / "pipeline.py").write_text(
        "import json, pathlib, sys\n"
        "json.load(sys.stdin)\n"
        "f = pathlib.Path('counter'); n = int(f.read_text()) if f.exists() else 0\n"
        "f.write_text(str(n + 1))\n"
        "print(json.dumps({'answer': {'label': 'yes' if n % 2 == 0 else 'no'}}))\n"
    )
    run = check(workdir, only=["alpha"], baseline_runs=4, jobs=1)
    alpha = run.cases[0]
    assert [o.decision for o in alpha.baseline_runs] == ["yes", "no", "yes", "no"]
    assert alpha.nondeterminism == pytest.approx(2 / 3) == run.nondeterminism


def test_distance_is_looked_up_by_name(workdir: Path, make_config) -> None:
    registry = assay.build_registry()
    registry.register(lambda a, b: 0.25 if a != b else 0.0, kind="distance", name="quarter")
    make_config(workdir, extra="")
    (workdir / "assay-perturb.yaml").write_text(
        (workdir / "assay-perturb.yaml")
        .read_text()
        .replace("type: enum", "type: enum\n  distance: quarter")
    )
    run = check(workdir, registry=registry)
    assert run.distance == "quarter" and run.sensitivity == 0.25
    with pytest.raises(assay.AssayError, match="no distance named 'quarter'") as info:
        check(workdir, registry=assay.build_registry())
    assert info.value.code == "INVALID_CONFIG" and info.value.path == "decision.distance"


def test_numeric_decisions(workdir: Path, make_config) -> None:
    make_config(workdir, field="answer.score", type="numeric")
    run = check(workdir, only=["alpha"])
    swap = run.cases[0].variants[-1]
    # "approve this request" (20 chars) vs "deny this request" (17 chars)
    assert swap.distance == pytest.approx(numeric_distance(20, 17))


def test_third_party_perturbation_registered_at_runtime(workdir: Path, make_config) -> None:
    class Shout:
        name = "shout"
        signal = "invariance"

        def variants(self, case, others, rng, params):
            chunks = [assay.Chunk(c.id, c.text.upper()) for c in case.chunks]
            return [
                assay.Variant("shout", self.name, chunks, "upper-cased every chunk", case.query)
            ]

    registry = assay.build_registry()
    registry.register(Shout())
    make_config(workdir, perturbations="{shout: {}, swap: {}}")
    run = check(workdir, registry=registry)
    shout = run.cases[0].variants[0]
    assert shout.decision == "APPROVE" and shout.distance == 1.0 and run.invariance == 0.0


def test_unknown_perturbation_or_parameter_is_a_config_error(workdir: Path, make_config) -> None:
    make_config(workdir, perturbations="{typo: {}}")
    with pytest.raises(assay.AssayError, match="no perturbation named 'typo'") as info:
        check(workdir)
    assert info.value.code == "INVALID_CONFIG" and info.value.path == "perturbations.typo"
    make_config(workdir, perturbations="{reorder: {cuont: 2}}")
    with pytest.raises(assay.AssayError, match="allowed for reorder: count") as info:
        check(workdir)
    assert info.value.path == "perturbations.reorder.cuont"


def test_objects_registered_with_assay_register_are_used_by_default(
    workdir: Path, make_config
) -> None:
    class Casing:
        name = "casing"
        signal = "invariance"
        parameters = frozenset()

        def variants(self, case, others, rng, params):
            chunks = [assay.Chunk(c.id, c.text.upper()) for c in case.chunks]
            return [assay.Variant("casing", self.name, chunks, "upper-cased", case.query)]

    def lenient(a: str, b: str) -> float:
        return 0.0 if a.lower() == b.lower() else 1.0

    assay.reset_default_registry()
    try:
        assay.register(Casing())
        assay.register(lenient, kind="distance", name="lenient")
        make_config(workdir, perturbations="{casing: {}, swap: {}}")
        path = workdir / "assay-perturb.yaml"
        path.write_text(path.read_text().replace("type: enum", "type: enum\n  distance: lenient"))
        run = check(workdir)
    finally:
        assay.reset_default_registry()
    assert run.invariance == 1.0 and run.sensitivity == 1.0
    assert run.cases[0].variants[0].decision == "APPROVE"


def test_exit_0_without_the_decision_is_not_cached(workdir: Path) -> None:
    # exits 0 but prints no JSON: a failed invocation, which must run again next time
    script = workdir / "pipeline.py"
    good = script.read_text()
    script.write_text("import sys\nsys.stdin.read()\nprint('not json')\n")
    first = check(workdir, only=["alpha"])
    assert first.failed == 6 and first.executed == 6
    again = check(workdir, only=["alpha"])
    assert (again.executed, again.cached, again.failed) == (6, 0, 6)
    script.write_text(good)  # the fixed pipeline runs everything afresh
    fixed = check(workdir, only=["alpha"])
    assert (fixed.executed, fixed.cached, fixed.failed) == (6, 0, 0)


def test_names_differing_in_punctuation_or_case_get_their_own_folders(
    workdir: Path, make_case
) -> None:
    names = ["c 1", "c_1", "c+1", "C_1"]
    for name in names:
        make_case(workdir / "cases", name)
    first = check(workdir, only=names)
    assert (first.executed, first.failed) == (24, 0)
    folders = {o.folder for c in first.cases for o in (*c.baseline_runs, *c.variants)}
    assert len(folders) == 24
    assert len({f.split("/")[1].lower() for f in folders}) == 4
    assert "invocations/c_1/swap" in folders  # a plain name keeps its own folder name
    again = check(workdir, only=names)
    assert (again.executed, again.cached) == (0, 24)


HOSTILE_OUTPUT = """\
import json, sys
variant = json.load(sys.stdin)["variant"]
out = sys.stdout.buffer
if variant == "baseline":
    out.write(b'{"answer": {"label": 1}}')
elif variant == "reorder-1":
    out.write(b'{"answer": {"label": NaN}}')
elif variant == "reorder-2":
    out.write(b'{"answer": {"label": 1e999}}')
elif variant == "pad-1":
    out.write(b'{"answer": {"label": ' + b'[' * 100000 + b']' * 100000 + b'}}')
elif variant == "pad-2":
    out.write(b'{"answer": {"label": "\\xff\\xfe invalid utf-8"}}\\xff')
    sys.stderr.buffer.write(b'\\xff' * 3000000)
else:
    chunk = b'x' * (1 << 20)
    for _ in range(40):
        out.write(chunk)
"""


@pytest.mark.parametrize("decision_type", ["enum", "numeric"])
def test_hostile_output_fails_one_invocation_with_a_code_not_the_run(
    workdir: Path, make_config, decision_type: str
) -> None:
    (workdir / "pipeline.py").write_text(HOSTILE_OUTPUT)
    make_config(workdir, type=decision_type)
    run = check(workdir, only=["alpha"])
    alpha = run.cases[0]
    assert alpha.baseline_decision == 1
    codes = {o.variant: o.failure_code for o in alpha.variants}
    assert codes == {
        "reorder-1": "invalid-json",
        "reorder-2": "invalid-json",
        "pad-1": "invalid-json",
        "pad-2": "invalid-json",  # a stray byte after the JSON document
        "swap": "output-too-large",
    }
    assert "NaN is not a JSON number" in alpha.variants[0].failure
    assert "nested too deeply" in alpha.variants[2].failure
    results = json.loads((workdir / "assay-perturb/results.json").read_text())
    assert results["cases"][0]["variants"][4]["failureCode"] == "output-too-large"
    assert (workdir / "assay-perturb/report.html").exists()
    swap = workdir / "assay-perturb/invocations/alpha/swap"
    assert (swap / "stdout.txt").stat().st_size <= 16 * 1024 * 1024
    assert (workdir / "assay-perturb/invocations/alpha/pad-2/stderr.txt").stat().st_size < 4 << 20


def test_a_huge_integer_is_not_a_numeric_decision(workdir: Path, make_config) -> None:
    (workdir / "pipeline.py").write_text(
        "import json, sys\nv = json.load(sys.stdin)['variant']\n"
        "print('{\"answer\": {\"label\": ' + ('1' if v == 'baseline' else '9' * 400) + '}}')\n"
    )
    make_config(workdir, type="numeric", perturbations="{swap: {}}")
    swap = check(workdir, only=["alpha"]).cases[0].variants[0]
    assert swap.failure_code == "wrong-type" and "not a finite number" in swap.failure


YEAR_CASE = """\
# agency-year

## Query
WNP-3 and WNP-5 were constructed by the agency formed in which year?

## Context

### s1
The Satsop plants were two of the five nuclear power plants started by the Washington Public
Power Supply System.

### s2
Energy Northwest (formerly Washington Public Power Supply System) is a public power agency formed
by State law in 1957.

## Key evidence
- s2

## Counterfactual

### s2
Energy Northwest (formerly Washington Public Power Supply System) is a public power agency formed
by State law in 1964.

## Padding

### garden
Tomatoes grow best in full sun with regular watering.

## Expected decision
1957
"""


def test_numeric_distance_hides_a_changed_year_and_a_warning_says_so(
    tmp_path: Path, make_config
) -> None:
    """The example answerer answers the year; the swap moves it by 7. The relative numeric
    distance scores that 7 / 1964 (as the specification says), a warning names the problem, and
    ``distance: exact`` counts the change in full."""
    from assay_perturb.scoring import numeric_scale_warning

    answerer = Path(__file__).parents[3] / "examples" / "perturb" / "answerer.py"
    (tmp_path / "cases").mkdir()
    (tmp_path / "cases" / "agency-year.md").write_text(YEAR_CASE)
    command = f"[{sys.executable!r}, {str(answerer)!r}]"
    make_config(tmp_path, field="answer.value", type="numeric", command=command)
    run = check(tmp_path)
    swap = run.cases[0].variants[-1]
    assert (run.cases[0].baseline_decision, swap.decision) == (1957, 1964)
    assert swap.distance == pytest.approx(7 / 1964)
    warning = numeric_scale_warning(run)
    assert warning is not None and warning.startswith("1 changed decision(s) scored below 0.05")
    assert "1957 -> 1964: 0.0036" in warning and "decision.distance: exact" in warning
    config = tmp_path / "assay-perturb.yaml"
    config.write_text(
        config.read_text().replace("type: numeric", "type: numeric\n  distance: exact")
    )
    exact = check(tmp_path)
    assert exact.sensitivity == 1.0 and exact.invariance == 1.0
    assert numeric_scale_warning(exact) is None
