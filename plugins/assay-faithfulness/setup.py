"""Build of the optional compiled twin (assay_faithfulness._speedups); metadata is in
pyproject.toml.

``optional``: on a machine without a working C compiler the extension is skipped with a warning
and the package installs with its pure-Python implementation, which is the reference anyway.
The flag is set on what ``cythonize`` returns: cythonize rebuilds the Extension objects and does
not carry ``optional=True`` over (Cython 3.3), which would make the whole install fail.

``-ffp-contract=off``: the twin must round exactly as the reference's Python floats do, so the
compiler may not fuse ``a * b + c`` into one instruction (GCC does by default wherever the target
has FMA, Clang within an expression; MSVC ignores the flag and fuses nothing by default).
Compiler directive ``infer_types=False``: only locals declared with ``cdef`` become C values.
No bounds/wraparound/cdivision switches: they could silently change semantics.
"""

from Cython.Build import cythonize
from setuptools import Extension, setup

extensions = cythonize(
    [
        Extension(
            "assay_faithfulness._speedups",
            ["src/assay_faithfulness/_speedups.pyx"],
            extra_compile_args=["-ffp-contract=off"],
            optional=True,
        )
    ],
    language_level=3,
    compiler_directives={"infer_types": False},
)
for extension in extensions:
    extension.optional = True  # not carried over by cythonize

setup(ext_modules=extensions)
