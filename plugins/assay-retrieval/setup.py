"""Build of the optional compiled twin (assay_retrieval._speedups); metadata is in pyproject.toml.

``optional``: on a machine without a working C compiler the extension is skipped with a warning
and the package installs with its pure-Python implementation, which is the reference anyway.
The flag is set on what ``cythonize`` returns: cythonize rebuilds the Extension objects and does
not carry ``optional=True`` over (Cython 3.3).

Compiler directives: ``binding=True`` (Cython 3's default, stated because the compiled functions
replace methods and must bind like them) and ``infer_types=False`` (a local is a C value only
where it is declared one, so untyped arithmetic stays Python's, int or float as it comes). No
boundscheck / wraparound / cdivision switches: list indexing keeps its bounds check (a key's
``__eq__`` run by a dict lookup could shrink the candidate list), and the only divisions are of
doubles, where cdivision would turn Python's ZeroDivisionError into inf or NaN.
"""

from Cython.Build import cythonize
from setuptools import Extension, setup

extensions = cythonize(
    [
        Extension(
            "assay_retrieval._speedups",
            ["src/assay_retrieval/_speedups.pyx"],
            optional=True,
        )
    ],
    language_level=3,
    compiler_directives={"binding": True, "infer_types": False},
)
for extension in extensions:
    extension.optional = True  # not carried over by cythonize

setup(ext_modules=extensions)
