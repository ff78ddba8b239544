"""Build of the optional compiled twin of the scorecard hot path (assay._scorecard._speedups);
metadata is in pyproject.toml.

``optional``: on a machine without a working C compiler the extension is skipped with a warning
and the package installs with its pure-Python implementation, which is the reference anyway. The
flag is set on what ``cythonize`` returns, which does not carry it over (Cython 3.3).

Directives: ``binding=True`` (the compiled functions replace methods and must bind like them)
and ``infer_types=False`` (only ``cdef``-declared locals become C values, so a local never turns
an int the reference keeps into a C double).
"""

from Cython.Build import cythonize
from setuptools import Extension, setup

extensions = cythonize(
    [Extension("assay._scorecard._speedups", ["src/assay/_scorecard/_speedups.pyx"])],
    language_level=3,
    compiler_directives={"binding": True, "infer_types": False},
)
for extension in extensions:
    extension.optional = True  # not carried over by cythonize

setup(ext_modules=extensions)
