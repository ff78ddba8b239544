"""The HTML report rendered in headless Chromium: content present, injected text inert.

Chromium comes from Debian's ``chromium`` package; the session fixture installs it with apt-get
when it is missing (the project's own set-up) and fails with a clear message if it cannot.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from assay_perturb import load_config, run_check

INJECTED = (
    "<script>document.title='PWNED-SCRIPT';document.body.innerHTML='PWNED'</script>"
    "<img src=x onerror=\"document.title='PWNED-IMG'\"> $(touch pwned-dollar) "
    "`touch pwned-backtick` ' \" </td></table><b>bold?</b>"
)

# Echoes the query into the decision and into stderr, so pipeline text is injected too; the
# "FAIL" variant exits non-zero so that its stderr tail appears in the report.
ECHO_PIPELINE = """\
import json, sys
v = json.load(sys.stdin)
print("stderr says " + v["query"], file=sys.stderr)
if v["variant"] == "reorder-1":
    sys.exit(7)
key = next(c["text"] for c in v["chunks"] if c["id"] == "key")
print(json.dumps({"answer": {"label": key.split()[0] + " " + v["query"]}}))
"""

FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture(scope="session")
def chromium() -> str:
    """Path of Debian's chromium, installed with apt-get when missing (never skipped)."""
    found = shutil.which("chromium") or (
        "/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else None
    )
    if found:
        return found
    steps = (["apt-get", "update"], ["apt-get", "install", "-y", "chromium"])
    for step in steps:
        try:
            done = subprocess.run(step, capture_output=True, text=True, timeout=900)
        except (OSError, subprocess.TimeoutExpired) as exc:
            pytest.fail(
                f"cannot install chromium for the HTML report test: {' '.join(step)}: {exc}"
            )
        if done.returncode != 0:
            pytest.fail(
                "cannot install chromium for the HTML report test: "
                f"{' '.join(step)} exited {done.returncode}: {done.stderr[-500:]}"
            )
    found = shutil.which("chromium")
    if not found:
        pytest.fail("apt-get installed chromium but no `chromium` is on PATH")
    return found


def render(chromium: str, page: Path, *extra: str) -> str:
    with tempfile.TemporaryDirectory(prefix="assay-chromium-") as profile:
        done = subprocess.run(
            [
                chromium,
                *FLAGS,
                f"--user-data-dir={profile}",
                "--virtual-time-budget=3000",
                *extra,
                page.as_uri(),
            ],
            capture_output=True,
            text=True,
            timeout=120,
        )
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


@pytest.fixture
def report(workdir: Path, make_case, make_config) -> Path:
    (workdir / "pipeline.py").write_text(ECHO_PIPELINE)
    make_case(
        workdir / "cases",
        "alpha",
        query=INJECTED,
        other_text=INJECTED,
        counterfactual="deny " + INJECTED,
    )
    make_config(workdir, perturbations="{reorder: {count: 2}, swap: {}}")
    config, text = load_config(workdir / "assay-perturb.yaml")
    run_check(config, workdir=workdir, config_text=text)
    assert not list(workdir.glob("pwned-*")), "case text reached a shell"
    return workdir / "assay-perturb" / "report.html"


def test_report_is_self_contained_and_escaped(report: Path) -> None:
    html = report.read_text()
    assert not re.search(r"<\s*(script|img|iframe|object|embed|link)\b", html, re.I)
    assert not re.search(r"<[a-z][^>]*\son[a-z]+\s*=", html, re.I)  # no event-handler attribute
    assert not re.search(r"""(src|href)=["']?(https?:|//)""", html)
    assert "&lt;script&gt;document.title=&#x27;PWNED-SCRIPT&#x27;" in html
    assert "Content-Security-Policy" in html


@pytest.mark.parametrize("keep_csp", [True, False], ids=["with-csp", "escaping-alone"])
def test_chromium_shows_content_and_runs_nothing(
    chromium: str, report: Path, tmp_path: Path, keep_csp: bool
) -> None:
    page = report
    if not keep_csp:  # prove escaping alone keeps the page inert, without the CSP's help
        page = tmp_path / "no-csp.html"
        page.write_text(
            re.sub(r'<meta http-equiv="Content-Security-Policy"[^>]*>', "", report.read_text())
        )
        assert "Content-Security-Policy" not in page.read_text()
    dom = render(chromium, page, "--dump-dom")
    assert "<title>assay perturb report</title>" in dom
    # the injected markup is present as text, never as elements
    assert "&lt;script&gt;document.title='PWNED-SCRIPT'" in dom
    assert "&lt;img src=x onerror=\"document.title='PWNED-IMG'\"&gt;" in dom
    assert "<img" not in dom and "<b>bold?</b>" not in dom
    assert "$(touch pwned-dollar) `touch pwned-backtick`" in dom
    # the content is there: signals, case, baseline decision, failure with its stderr tail
    for expected in (
        "invariance",
        "sensitivity",
        "nondeterminism",
        'id="case-alpha"',
        "failed: exit code 7",
        "stderr says &lt;script&gt;",
        "counterfactual in place of key",
        "order: ",
    ):
        assert expected in dom, expected


def test_screenshot_renders(chromium: str, report: Path, tmp_path: Path) -> None:
    shot = tmp_path / "report.png"
    render(chromium, report, f"--screenshot={shot}", "--window-size=1280,1600")
    assert shot.stat().st_size > 20_000
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def _row_class(page: str, variant: str) -> str:
    import re

    section = page[page.index("<section") :]  # the case's own table, not the summaries
    found = re.search(r'<tr(?: class="([^"]*)")?><td>' + re.escape(variant) + "</td>", section)
    assert found, variant
    return found.group(1) or ""


def test_a_swap_that_changed_the_decision_is_not_coloured_as_a_breakage(
    workdir: Path, make_case
) -> None:
    make_case(workdir / "cases", "alpha", query="FIRST label?")  # reorders break the decision
    config, text = load_config(workdir / "assay-perturb.yaml")
    run = run_check(config, workdir=workdir, config_text=text, only=["alpha"])
    variants = {o.variant: o for o in run.cases[0].variants}
    page = (workdir / "assay-perturb" / "report.html").read_text()
    broken = [v for v in ("reorder-1", "reorder-2") if variants[v].distance]
    assert broken, "the FIRST pipeline should be moved by some reorder"
    for name in broken:
        assert _row_class(page, name) == "changed"
    assert variants["swap"].distance == 1.0  # the key chunk comes first, and swap changes it
    assert _row_class(page, "swap") == "expected"


def test_failed_floor_and_nondeterminism_caution_are_in_the_html(
    workdir: Path, make_case, monkeypatch: pytest.MonkeyPatch
) -> None:
    from click.testing import CliRunner

    from assay_perturb.cli import perturb

    (workdir / "pipeline.py").write_text(
        "import json, pathlib, sys\n"
        "json.load(sys.stdin)\n"
        "f = pathlib.Path('counter'); n = int(f.read_text()) if f.exists() else 0\n"
        "f.write_text(str(n + 1))\n"
        "print(json.dumps({'answer': {'label': 'yes' if n % 2 == 0 else 'no'}}))\n"
    )
    monkeypatch.chdir(workdir)
    result = CliRunner().invoke(
        perturb,
        ["check", "--quiet", "--jobs", "1", "--baseline-runs", "2", "--min-invariance", "0.99"],
    )
    assert result.exit_code == 1, result.output
    page = (workdir / "assay-perturb" / "report.html").read_text()
    assert '<div class="floor-failed"><b>CI floors</b>' in page
    assert "FAILED: invariance" in page and "<code>--min-invariance 0.99</code>" in page
    assert '<p class="caution">note: the baseline itself varies between runs' in page
