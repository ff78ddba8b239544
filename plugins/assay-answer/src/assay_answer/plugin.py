"""Hooks of the answer plugin: registers the ``answer-support`` signal reader and the
``assay_answer`` MCP tool."""

from __future__ import annotations

from typing import TYPE_CHECKING

from assay import hookimpl
from assay_answer.mcp_tool import ANSWER_TOOL
from assay_answer.reader import ANSWER_SUPPORT
from assay_scorecard import READER_KIND

if TYPE_CHECKING:
    from assay import Registrar


@hookimpl
def assay_register(registrar: Registrar) -> None:
    registrar.add(READER_KIND, ANSWER_SUPPORT, name=ANSWER_SUPPORT.name)
    registrar.add("mcp-tool", ANSWER_TOOL, name=ANSWER_TOOL.name)
