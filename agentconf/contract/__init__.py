"""The contract as data: codes, envelope, issues, tools, capabilities, limits and clauses.

Docs, reports and tests are generated from this package; nothing else restates it.
"""

from .capabilities import CAPABILITIES, FEATURE_CAPABILITIES, TOOL_CAPABILITIES
from .clauses import CATEGORIES, CLAUSES, Clause, Level, active_clauses
from .codes import ERROR_CODES, ErrorCode, is_error_code
from .envelope import Denial, Envelope, ValidationIssue, envelope_json_schema
from .limits import DEFAULT_LIMITS, Limits
from .protocol import protocol_json_schema
from .tools import CANONICAL_TOOLS, CanonicalTool, ToolKind
from .workspace import Workspace

CONTRACT_VERSION = "0.1.0"

__all__ = [
    "CANONICAL_TOOLS",
    "CAPABILITIES",
    "CATEGORIES",
    "CLAUSES",
    "CONTRACT_VERSION",
    "DEFAULT_LIMITS",
    "ERROR_CODES",
    "FEATURE_CAPABILITIES",
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
    "Workspace",
    "active_clauses",
    "envelope_json_schema",
    "is_error_code",
    "protocol_json_schema",
]
