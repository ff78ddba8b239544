"""Hooks of the scorecard plugin: the default action policy, the presets, the ``assay_scorecard``
MCP tool and ``assay score``, registered through the same hooks as any plugin's."""

from __future__ import annotations

from typing import TYPE_CHECKING

from assay import hookimpl
from assay_scorecard.mcp_tool import SCORECARD_TOOL
from assay_scorecard.policy import ThresholdActionPolicy
from assay_scorecard.presets import builtin_presets

if TYPE_CHECKING:
    import click

    from assay import Registrar


@hookimpl
def assay_register(registrar: Registrar) -> None:
    registrar.add_policy(ThresholdActionPolicy())
    for preset in builtin_presets():
        registrar.add("preset", preset, name=preset.name)
    registrar.add("mcp-tool", SCORECARD_TOOL, name=SCORECARD_TOOL.name)


@hookimpl
def assay_cli(cli: click.Group) -> None:
    from assay_scorecard.command import score_command

    cli.add_command(score_command)
