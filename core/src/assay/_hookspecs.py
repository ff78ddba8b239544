"""Hook specifications: the only two places where assay calls into a plugin's module.

Both hooks run at discovery time, once per registry or CLI build, never per scored answer: a
plugin hands plain objects to a registrar, and the hot path calls those objects directly.

A plugin module implements a hook by defining a function of the same name decorated with
:data:`hookimpl` (``from assay import hookimpl``) and is found through an entry point in the
``assay`` group::

    [project.entry-points.assay]
    myplugin = "my_package.plugin"
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pluggy

if TYPE_CHECKING:  # imported for type checking only; plugins never import these at runtime here
    import click

    from assay._registry import Registrar

PROJECT_NAME = "assay"
ENTRY_POINT_GROUP = "assay"

hookspec = pluggy.HookspecMarker(PROJECT_NAME)
hookimpl = pluggy.HookimplMarker(PROJECT_NAME)


@hookspec
def assay_register(registrar: Registrar) -> None:
    """Register this plugin's objects.

    Called once per plugin when a :class:`~assay.Registry` is built (lazily, on first use, or by
    :func:`assay.build_registry`). The plugin calls ``registrar.add_dimension(obj)``,
    ``add_metric``, ``add_perturbation``, ``add_policy``, ``add_judge`` or the generic
    ``add(kind, obj, name=...)`` for each object it provides.

    :param registrar: records each object with its provider (plugin name, distribution,
        version). Its ``add_*`` methods raise :class:`~assay.AssayError` (``DUPLICATE_NAME``) when
        this plugin already registered that name, or (``INVALID_PLUGIN_OBJECT``) when the object
        lacks what its protocol requires.
    :return: nothing; the return value is ignored. If the hook raises, none of this plugin's
        registrations are kept, the plugin is recorded as broken with the error, and the other
        plugins keep working (unless strict plugin loading is on, where the error propagates).
    """


@hookspec
def assay_cli(cli: click.Group) -> None:
    """Add this plugin's subcommands to the ``assay`` command.

    Called once when the ``assay`` command line is built, after the core's own subcommands were
    added. The plugin calls ``cli.add_command(command)`` with a :class:`click.Command` or
    :class:`click.Group`. Heavy imports belong inside the command's function, not at module
    level, so that ``assay --help`` and ``assay plugins`` stay fast.

    :param cli: the root ``assay`` :class:`click.Group`.
    :return: nothing; the return value is ignored. If the hook raises, the plugin is recorded as
        broken and its commands are missing; the rest of the CLI works.
    """
