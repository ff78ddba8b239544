"""Every code block of README.md and docs/*.md runs as written.

Blocks fenced as ``python``, ``bash``, ``sh`` or ``console`` are extracted from each file and run
in file order, in one subprocess per file, from a folder that mirrors the repository root (a link to
each top-level entry, so what a block writes does not land in the repository):

* Python blocks of one file share one namespace, so a later block may use what an earlier one
  defined (as a reader following the page would). They run in the workspace's interpreter.
* Shell blocks run in ``bash -e -o pipefail`` with the interpreter's ``bin`` folder first on
  ``PATH`` (so ``assay`` is the workspace's). In a ``console`` block only the ``$ `` lines are
  commands; the other lines show output and are not compared.

A block is skipped only when the line just above its fence is an HTML comment
``<!-- no-run: reason -->`` (install commands, anything needing the network). The reason must
be given; such markers are meant to be rare.

The data a block reads lives in ``examples/docs/`` (or elsewhere under ``examples/``).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[1]
DOCS = [REPO_ROOT / "README.md", *sorted((REPO_ROOT / "docs").glob("*.md"))]
RUNNABLE = {"python": "python", "py": "python", "bash": "shell", "sh": "shell", "console": "shell"}
FENCE = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})(?P<info>[^`]*)$")
NO_RUN = re.compile(r"^\s*<!--\s*no-run:\s*(?P<reason>.*?)\s*-->\s*$")


@dataclass(frozen=True)
class Block:
    """One fenced block: its language, first code line (1-based), code, and skip reason."""

    lang: str
    kind: str  # "python", "shell" or "" (not run)
    line: int
    code: str
    no_run: str | None


def extract(path: Path) -> list[Block]:
    """The fenced blocks of a Markdown file, in order (indented fences inside lists included)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    blocks: list[Block] = []
    i = 0
    while i < len(lines):
        opened = FENCE.match(lines[i])
        if not opened:
            i += 1
            continue
        indent, fence = opened["indent"], opened["fence"]
        lang = opened["info"].strip().split(" ")[0].lower() if opened["info"].strip() else ""
        previous = next((lines[j] for j in range(i - 1, -1, -1) if lines[j].strip()), "")
        marker = NO_RUN.match(previous)
        body: list[str] = []
        j = i + 1
        while j < len(lines):
            closing = lines[j].strip()
            if closing.startswith(fence[0] * len(fence)) and not closing.strip(fence[0]):
                break
            body.append(lines[j][len(indent) :] if lines[j].startswith(indent) else lines[j])
            j += 1
        blocks.append(
            Block(
                lang=lang,
                kind=RUNNABLE.get(lang, ""),
                line=i + 2,
                code=textwrap.dedent("\n".join(body)) + "\n",
                no_run=marker["reason"] if marker else None,
            )
        )
        i = j + 1
    return blocks


def shell_script(block: Block) -> str:
    """The commands of a shell block.

    For ``console``: the ``$ `` lines (with their ``\\`` continuations); a command followed by
    ``$ echo $?`` may fail, since the transcript shows its exit status.
    """
    if block.lang != "console":
        return block.code
    commands: list[list[str]] = []
    continuing = False
    for text in block.code.splitlines():
        if text.startswith("$ "):
            commands.append([text[2:]])
        elif continuing:
            commands[-1].append(text)
        else:
            continue
        continuing = text.rstrip().endswith("\\")
    lines: list[str] = []
    for i, command in enumerate(commands):
        if command == ["echo $?"] and i > 0:
            lines.append("echo $status")  # the status kept below, `set -e` being back on
        elif i + 1 < len(commands) and commands[i + 1] == ["echo $?"]:
            lines += ["set +e", *command, "status=$?", "set -e"]
        else:
            lines += command
    return "\n".join(lines) + "\n"


# The driver runs in the workspace interpreter: it executes the blocks in order and stops at the
# first that fails, printing a JSON line with where and why.
DRIVER = r"""
import json, os, subprocess, sys, traceback
doc, blocks = json.load(sys.stdin)
namespace = {"__name__": "__main__"}
for block in blocks:
    where = f"{doc}:{block['line']}"
    print(f"--- {where} ({block['kind']})", flush=True)
    if block["kind"] == "python":
        code = "\n" * (block["line"] - 1) + block["code"]
        try:
            exec(compile(code, doc, "exec"), namespace)
        except BaseException:
            sys.stdout.flush()
            print(json.dumps({"failed": where, "error": traceback.format_exc()}), flush=True)
            sys.exit(1)
    else:
        done = subprocess.run(["bash", "-e", "-o", "pipefail", "-c", block["code"]])
        sys.stdout.flush()
        if done.returncode != 0:
            print(json.dumps({"failed": where, "error": f"exit status {done.returncode}"}))
            sys.exit(1)
"""


def scratch_root(tmp_path: Path) -> Path:
    """A folder that reads like the repository root: a link to each of its top-level entries.

    Blocks run there, so relative paths (``examples/docs/...``) read the repository's files while
    the files a block writes (``assay perturb init``'s config, reports) land in the scratch folder.
    """
    root = tmp_path / "repo"
    root.mkdir()
    for entry in REPO_ROOT.iterdir():
        if entry.name != ".git":
            (root / entry.name).symlink_to(entry, target_is_directory=entry.is_dir())
    return root


def run_file(path: Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    relative = path.relative_to(REPO_ROOT).as_posix()
    blocks = [
        {"kind": b.kind, "line": b.line, "code": b.code if b.kind == "python" else shell_script(b)}
        for b in extract(path)
        if b.kind and b.no_run is None
    ]
    env = dict(os.environ)
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    env.pop("PYTHONPATH", None)
    return subprocess.run(
        [sys.executable, "-c", DRIVER],
        input=json.dumps([relative, blocks]),
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )


RUN_FILES = [p for p in DOCS if any(b.kind and b.no_run is None for b in extract(p))]


@pytest.mark.parametrize(
    "path", RUN_FILES, ids=[p.relative_to(REPO_ROOT).as_posix() for p in RUN_FILES]
)
def test_blocks_run(path: Path, tmp_path: Path) -> None:
    done = run_file(path, scratch_root(tmp_path))
    if done.returncode != 0:
        failure = done.stdout.strip().splitlines()[-1] if done.stdout.strip() else ""
        pytest.fail(
            f"{path.name}: a code block failed\n{failure}\n"
            f"--- stdout (tail)\n{done.stdout[-4000:]}\n--- stderr (tail)\n{done.stderr[-4000:]}",
            pytrace=False,
        )


def test_every_runnable_block_is_run_or_says_why_not() -> None:
    counts = {"python": 0, "shell": 0, "skipped": 0}
    for path in DOCS:
        for block in extract(path):
            if not block.kind:
                continue
            if block.no_run is not None:
                assert block.no_run, f"{path.name}:{block.line}: a no-run marker needs a reason"
                counts["skipped"] += 1
            else:
                counts[block.kind] += 1
    # the markers stay rare: a page of examples nobody runs drifts from the code
    assert counts["skipped"] <= max(4, (counts["python"] + counts["shell"]) // 10), counts
    assert counts["python"] >= 20 and counts["shell"] >= 5, counts


def test_extract_reads_indented_fences_and_markers(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text(
        "1. Step:\n\n   ```python\n   x = 1\n   ```\n\n<!-- no-run: needs the network -->\n"
        "```bash\npip install thing\n```\n\n```console\n$ echo a \\\n  b\na b\n```\n",
        encoding="utf-8",
    )
    first, second, third = extract(page)
    assert (first.kind, first.line, first.code, first.no_run) == ("python", 4, "x = 1\n", None)
    assert second.no_run == "needs the network"
    assert shell_script(third) == "echo a \\\n  b\n"
    (transcript,) = extract_text(tmp_path, "```console\n$ false\n$ echo $?\n1\n$ true\n```\n")
    assert shell_script(transcript) == "set +e\nfalse\nstatus=$?\nset -e\necho $status\ntrue\n"


def extract_text(tmp_path: Path, text: str) -> list[Block]:
    page = tmp_path / "other.md"
    page.write_text(text, encoding="utf-8")
    return extract(page)


LINK = re.compile(r"\[[^\]]*\]\((?P<target>[^)\s]+)\)")


def _anchors(page: Path) -> set[str]:
    """GitHub's heading anchors of a Markdown page (lower-cased, punctuation dropped)."""
    anchors = set()
    for line in page.read_text(encoding="utf-8").splitlines():
        if line.startswith("#"):
            title = line.lstrip("#").strip().lower()
            anchors.add(re.sub(r"[^\w\- ]", "", title).replace(" ", "-"))
    return anchors


def test_relative_links_resolve() -> None:
    broken = []
    for page in [*DOCS, REPO_ROOT / "CHANGELOG.md", REPO_ROOT / "contributors" / "README.md"]:
        for match in LINK.finditer(page.read_text(encoding="utf-8")):
            target = match["target"]
            if re.match(r"^[a-z]+:", target):
                continue  # http(s), mailto: not checked here
            path, _, anchor = target.partition("#")
            resolved = (page.parent / path).resolve() if path else page
            if not resolved.exists():
                broken.append(f"{page.name}: {target}")
            elif anchor and resolved.suffix == ".md" and anchor not in _anchors(resolved):
                broken.append(f"{page.name}: {target} (no such heading)")
    assert not broken, broken
