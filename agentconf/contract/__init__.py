"""The contract as data: codes, envelope, issues, tools, capabilities, limits and clauses.

Docs, reports and tests are generated from this package; nothing else restates it.
"""

from .capabilities import CAPABILITIES, FEATURE_CAPABILITIES, TOOL_CAPABILITIES
from .changelog import CHANGELOG, Version
from .clauses import CATEGORIES, CLAUSES, Clause, Level, active_clauses
from .codes import ERROR_CODES, ErrorCode, is_error_code
from .envelope import Denial, Envelope, ValidationIssue, envelope_json_schema
from .limits import DEFAULT_LIMITS, Limits
from .protocol import protocol_json_schema
from .tools import (
    ANNOTATION_HINTS,
    CANONICAL_TOOLS,
    DESTRUCTIVE_TOOLS,
    PATH_TOOLS,
    READING_PATH_TOOLS,
    CanonicalTool,
    ToolKind,
    declared_hint,
    declares_read_only,
)
from .workspace import Workspace

# The newest changelog entry names the version, so a bump cannot come without its entry.
CONTRACT_VERSION = CHANGELOG[0].version

__all__ = [
    "ANNOTATION_HINTS",
    "CANONICAL_TOOLS",
    "CAPABILITIES",
    "CATEGORIES",
    "CHANGELOG",
    "CLAUSES",
    "CONTRACT_VERSION",
    "DEFAULT_LIMITS",
    "DESTRUCTIVE_TOOLS",
    "ERROR_CODES",
    "FEATURE_CAPABILITIES",
    "PATH_TOOLS",
    "READING_PATH_TOOLS",
    "TOOL_CAPABILITIES",
    "CanonicalTool",
    "Clause",
    "Denial",
    "Envelope",
    "ErrorCode",
    "Level",
    "Limits",
    "ToolKind",
    "ValidationIssue",
    "Version",
    "Workspace",
    "active_clauses",
    "declared_hint",
    "declares_read_only",
    "envelope_json_schema",
    "is_error_code",
    "protocol_json_schema",
]
