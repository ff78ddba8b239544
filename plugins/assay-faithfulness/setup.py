"""Build of the optional compiled modules; metadata is in pyproject.toml.

Two kinds, both optional, both built from sources that stay the reference:

1. ``assay_faithfulness._speedups``, Cython twins of a few rule-free text kernels
   (``_speedups.pyx``; the pure-Python functions they mirror stay in use where it is absent).
2. The answer detector's modules (``answer_*.py``, ``inflection.py``), compiled by mypyc from
   their Python source as it is: the same file is the compiled module's source and, where no
   compiler is at hand, the module itself. Every rule stays written once, in Python.

``optional``: on a machine without a working C compiler an extension is skipped with a warning
and the package installs with its pure-Python modules. The flag is set on what ``cythonize`` and
``mypycify`` return (neither carries ``optional=True`` over). ``ASSAY_PURE_PYTHON=1`` at install
time skips the mypyc build, and a failure of mypyc itself (its type check) does too, with a
warning.

``-ffp-contract=off``: the twin must round exactly as the reference's Python floats do, so the
compiler may not fuse ``a * b + c`` into one instruction (GCC does by default wherever the target
has FMA, Clang within an expression; MSVC ignores the flag and fuses nothing by default). The
same flag is passed to the mypyc build for the same reason.
Compiler directive ``infer_types=False``: only locals declared with ``cdef`` become C values.
No bounds/wraparound/cdivision switches: they could silently change semantics.
"""

import os
import sys
from pathlib import Path

from Cython.Build import cythonize
from setuptools import Extension, setup

DETECTOR_MODULES = [
    "answer_conflicts",
    "answer_places",
    "answer_polarity",
    "answer_question",
    "answer_relation",
    "answer_support",
    "answer_text",
    "inflection",
]


def _cython_twins() -> list[Extension]:
    return cythonize(
        [
            Extension(
                "assay_faithfulness._speedups",
                ["src/assay_faithfulness/_speedups.pyx"],
                extra_compile_args=["-ffp-contract=off"],
            )
        ],
        language_level=3,
        compiler_directives={"infer_types": False},
    )


def _compiled_detector() -> list[Extension]:
    if os.environ.get("ASSAY_PURE_PYTHON"):
        return []
    core_source = Path(__file__).resolve().parents[2] / "core" / "src"
    if core_source.is_dir():  # a checkout: the core's types, as the type check sees them
        os.environ["MYPYPATH"] = str(core_source)
    try:
        from mypyc.build import mypycify

        return mypycify(
            [
                # strict: a class whose base is not known (typed Any) is refused, not
                # compiled as if its base were object; the package then stays Python
                "--strict",
                "--follow-imports=silent",
                "--ignore-missing-imports",
                *(f"src/assay_faithfulness/{name}.py" for name in DETECTOR_MODULES),
            ],
            opt_level="3",
            group_name="assay_faithfulness_detector",
        )
    except (Exception, SystemExit) as exc:  # mypyc exits on a type error
        print(
            f"warning: the detector is not compiled ({exc!r}); it runs as Python", file=sys.stderr
        )
        return []


extensions = _cython_twins() + _compiled_detector()
for extension in extensions:
    extension.optional = True  # not carried over by cythonize or mypycify
    extension.extra_compile_args = [*extension.extra_compile_args, "-ffp-contract=off"]

setup(ext_modules=extensions)
