"""Build of the optional compiled twin (assay_grounding._speedups); metadata is in pyproject.toml.

``optional``: on a machine without a working C compiler the extension is skipped with a warning
and the package installs with its pure-Python implementation, which is the reference anyway.
The flag is set on what ``cythonize`` returns: cythonize rebuilds the Extension objects and does
not carry ``optional=True`` over (Cython 3.3), which made the whole install fail without a
compiler.

Compiler directives: ``binding=True`` (Cython 3's default, stated because the compiled function
replaces a method and must bind like one) and ``infer_types=False`` (only locals declared with
``cdef`` become C values; Cython would otherwise infer a C double for a local that holds the int
or float the reference returns). No bounds/wraparound/cdivision switches: the module indexes
nothing and divides no C integers, so they would change nothing today and could silently change
semantics tomorrow.
"""

from Cython.Build import cythonize
from setuptools import Extension, setup

extensions = cythonize(
    [
        Extension(
            "assay_grounding._speedups",
            ["src/assay_grounding/_speedups.pyx"],
            optional=True,
        )
    ],
    language_level=3,
    compiler_directives={"binding": True, "infer_types": False},
)
for extension in extensions:
    extension.optional = True  # not carried over by cythonize

setup(ext_modules=extensions)
