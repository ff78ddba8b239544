"""Hook implementations of assay-jeffreys: the two gate policies, the ``bayes_output_gate`` tool
(kind ``mcp-tool``, served by ``assay mcp`` when assay-mcp is installed) and the ``assay gate``
command. Nothing heavy is imported here."""

from __future__ import annotations

import click

import assay


@assay.hookimpl
def assay_register(registrar: assay.Registrar) -> None:
    from assay_jeffreys.adapter import BAYES_OUTPUT_GATE_TOOL
    from assay_jeffreys.policies import BayesFactorPolicy, DecisionTheoreticPolicy

    registrar.add_policy(BayesFactorPolicy())
    registrar.add_policy(DecisionTheoreticPolicy())
    registrar.add("mcp-tool", BAYES_OUTPUT_GATE_TOOL, name=BAYES_OUTPUT_GATE_TOOL.name)


@assay.hookimpl
def assay_cli(cli: click.Group) -> None:
    from assay_jeffreys.cli import gate_group

    cli.add_command(gate_group)
