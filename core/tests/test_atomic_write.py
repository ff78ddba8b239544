"""assay.cli.atomic_write gives files the mode a plain write would (0o666 less the umask)."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from assay.cli import atomic_write, current_umask

_WRITE = """
import os, stat, sys
os.umask(int(sys.argv[2], 8))
from assay.cli import atomic_write, current_umask
assert current_umask() == int(sys.argv[2], 8), oct(current_umask())
with atomic_write(sys.argv[1]) as handle:
    handle.write("x")
print(oct(stat.S_IMODE(os.stat(sys.argv[1]).st_mode)))
"""


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX modes")
@pytest.mark.parametrize(
    ("umask", "expected"), [("022", "0o644"), ("077", "0o600"), ("002", "0o664")]
)
def test_atomic_write_gives_the_mode_of_a_plain_write(tmp_path: Path, umask: str, expected: str):
    target = tmp_path / "out.json"
    done = subprocess.run(
        [sys.executable, "-c", _WRITE, str(target), umask],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert done.stdout.strip() == expected


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX modes")
def test_atomic_write_replaces_an_existing_file_with_the_plain_mode(tmp_path: Path):
    target = tmp_path / "out.bin"
    target.write_bytes(b"old")
    with atomic_write(target, "wb") as handle:
        handle.write(b"new")
    assert target.read_bytes() == b"new"
    assert stat.S_IMODE(os.stat(target).st_mode) == 0o666 & ~current_umask()
    assert [p.name for p in tmp_path.iterdir()] == ["out.bin"]  # no temporary file left
