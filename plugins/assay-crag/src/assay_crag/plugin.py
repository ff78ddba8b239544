"""Hook implementations of assay-crag: registers the context-quality Dimensions, the CRAG
router Policies and the built-in document scorer, and adds the ``assay route`` group (``decide``,
``ab``, ``alerts``). Nothing heavy is imported here (scipy and numpy load only when a command runs)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import assay
from assay_crag.dimensions import context_dimensions
from assay_crag.router import CragRouter
from assay_crag.scorers import LexicalRelevanceScorer, TopicalRelevanceScorer

if TYPE_CHECKING:
    import click


@assay.hookimpl
def assay_register(registrar: assay.Registrar) -> None:
    """Dimensions ``retrievalConfidence``, ``contextSufficiency``, ``diversityScore``,
    ``estimatedFaithfulness``; policies ``crag`` (the default router: paper mode, lexical
    scorer), ``crag-paper`` (the same, by its mode's name) and ``crag-composite`` (the
    specification's composite rule, 0.7 / 0.3); document scorers ``lexical`` and ``topical``
    (kind ``document-scorer``)."""
    for dimension in context_dimensions():
        registrar.add_dimension(dimension)
    registrar.add_policy(CragRouter(scorer=LexicalRelevanceScorer(), name="crag"))
    registrar.add_policy(CragRouter("paper", scorer=LexicalRelevanceScorer()))
    registrar.add_policy(CragRouter("composite"))
    registrar.add("document-scorer", LexicalRelevanceScorer(), name="lexical")
    registrar.add("document-scorer", TopicalRelevanceScorer(), name="topical")


@assay.hookimpl
def assay_cli(cli: click.Group) -> None:
    """Adds ``assay route`` with its subcommands ``decide``, ``ab`` and ``alerts``."""
    from assay_crag.commands import route_group

    cli.add_command(route_group)
