"""Build of the optional compiled twin of the scorecard hot path (metadata: pyproject.toml).

``optional=True``: on a machine without a C compiler the extension is skipped and the
pure-Python reference implementation runs; results are identical either way.
"""

from Cython.Build import cythonize
from setuptools import Extension, setup

setup(
    ext_modules=cythonize(
        [
            Extension(
                "assay._scorecard._speedups",
                ["src/assay/_scorecard/_speedups.pyx"],
                optional=True,
            )
        ],
        language_level=3,
    )
)
