from pathlib import Path

import attrs
import pytest

import assay
from assay_perturb import format_case, load_cases, parse_case

GOOD = """\
# Title is optional

## Query
What is the window?

## Context
### a1
First chunk, with a heading inside a fence:
```
## Not a section
```

### b2
Second chunk.

## Key evidence
- a1

## Counterfactual
### a1
Swapped first chunk.

## Padding
### p
Pad one.

## Expected decision
30
"""


def test_parses_every_section() -> None:
    case = parse_case(GOOD, "cases/window.md")
    assert case.name == "window"
    assert case.query == "What is the window?"
    assert [c.id for c in case.chunks] == ["a1", "b2"]
    assert (
        case.chunks[0].text
        == "First chunk, with a heading inside a fence:\n```\n## Not a section\n```"
    )
    assert case.key_evidence == ("a1",)
    assert case.counterfactual == ("Swapped first chunk.",)
    assert case.padding == ("Pad one.",)
    assert case.expected_decision == "30"
    assert case.source == "cases/window.md"


def test_key_evidence_accepts_commas_and_orders_counterfactuals() -> None:
    text = GOOD.replace("- a1", "b2, a1").replace(
        "## Counterfactual\n### a1\nSwapped first chunk.",
        "## Counterfactual\n### a1\nSwapped first.\n### b2\nSwapped second.",
    )
    case = parse_case(text, "x.md")
    assert case.key_evidence == ("b2", "a1")
    assert case.counterfactual == ("Swapped second.", "Swapped first.")


@pytest.mark.parametrize(
    ("broken", "line", "fragment"),
    [
        (GOOD.replace("## Query", "## Question"), 3, "unknown section 'Question'"),
        (GOOD.replace("### b2", "### a1"), 13, "id 'a1' repeated (first at line 7)"),
        (GOOD.replace("- a1", "- zz"), 17, "key evidence 'zz' is not a chunk id"),
        (GOOD.replace("### a1\nSwapped", "### b2\nSwapped"), 20, "counterfactual for 'b2'"),
        (GOOD.replace("What is the window?", ""), 3, "the Query section is empty"),
        (GOOD.replace("### b2", "### b 2"), 13, "chunk id 'b 2' must be"),
        (
            GOOD.replace("## Context\n", "## Context\nloose text\n"),
            7,
            "text outside a '### <chunk-id>'",
        ),
        (GOOD.replace("What is", "### x\nWhat is"), 4, "only allowed in Context"),
        (GOOD.replace("## Padding", "## Query"), 23, "repeated (first at line 3)"),
        (GOOD.replace("```\n\n### b2", "\n### b2"), 9, "``` code fence never closed"),
    ],
)
def test_malformed_case_names_file_line_and_problem(broken: str, line: int, fragment: str) -> None:
    with pytest.raises(assay.AssayError) as info:
        parse_case(broken, "cases/bad.md")
    assert info.value.code == "MALFORMED_CASE"
    assert info.value.path == f"cases/bad.md:{line}"
    assert fragment in info.value.message


def test_text_before_the_first_section_is_a_free_description() -> None:
    case = parse_case("Notes for authors.\n<!-- a comment -->\n" + GOOD, "c.md")
    assert case.query == "What is the window?"


def test_missing_required_section() -> None:
    text = GOOD[: GOOD.index("## Counterfactual")]
    with pytest.raises(assay.AssayError, match="missing required section '## Counterfactual'"):
        parse_case(text, "c.md")


def test_load_cases_sorted_skips_readme_and_filters(tmp_path: Path) -> None:
    (tmp_path / "b.md").write_text(GOOD)
    (tmp_path / "a.md").write_text(GOOD)
    (tmp_path / "README.md").write_text("not a case")
    assert [c.name for c in load_cases(tmp_path)] == ["a", "b"]
    assert [c.name for c in load_cases(tmp_path, only=["b"])] == ["b"]
    with pytest.raises(assay.AssayError, match="no case named zz") as info:
        load_cases(tmp_path, only=["zz"])
    assert info.value.code == "CASES_DIR"


def test_load_cases_missing_or_empty_dir(tmp_path: Path) -> None:
    with pytest.raises(assay.AssayError, match="does not exist"):
        load_cases(tmp_path / "nope")
    with pytest.raises(assay.AssayError, match=r"no \*\.md case files"):
        load_cases(tmp_path)


def test_format_case_round_trips() -> None:
    case = parse_case(GOOD.replace("### p\n", "### pad-1\n"), "cases/window.md")
    again = parse_case(format_case(case, "Window"), "elsewhere/window.md")
    assert again == attrs.evolve(case, source="elsewhere/window.md")


@pytest.mark.parametrize(
    ("change", "fragment"),
    [
        ({"query": "## Sneaky"}, "reads as a heading"),
        ({"query": "  "}, "query is empty"),
        ({"query": "q\n```"}, "never closes"),
        ({"counterfactual": []}, "one counterfactual per key-evidence"),
        ({"chunks": [assay.Chunk("a b", "x")], "key_evidence": ["a b"]}, "breaks the id rule"),
    ],
)
def test_format_case_refuses_what_would_not_parse_back(
    change: dict[str, object], fragment: str
) -> None:
    case = parse_case(GOOD, "c.md")
    with pytest.raises(assay.AssayError, match=fragment):
        format_case(attrs.evolve(case, **change))
