"""Hook implementations of assay-jeffreys: the two gate policies and the ``assay gate`` and
``assay mcp`` commands. Nothing heavy is imported here."""

from __future__ import annotations

import click

import assay


@assay.hookimpl
def assay_register(registrar: assay.Registrar) -> None:
    from assay_jeffreys.policies import BayesFactorPolicy, DecisionTheoreticPolicy

    registrar.add_policy(BayesFactorPolicy())
    registrar.add_policy(DecisionTheoreticPolicy())


@assay.hookimpl
def assay_cli(cli: click.Group) -> None:
    from assay_jeffreys.cli import gate_group
    from assay_jeffreys.mcp_command import mcp_command

    cli.add_command(gate_group)
    cli.add_command(mcp_command)
