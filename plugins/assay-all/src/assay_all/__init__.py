"""assay-all: the assay core with every plugin, in one install.

This distribution holds no code: it only depends on the core (``assay``) and on every plugin
of the project. Import the parts you use (``assay``, ``assay_scorecard``, ``assay_evaluation``,
...); the ``assay`` command lists them with ``assay plugins``.
"""
