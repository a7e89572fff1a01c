"""How a check can end other than by passing: each exception maps to one outcome."""


class ImplementationFailure(Exception):
    """The implementation crashed, hung, broke the protocol or could not start: outcome `error`."""


class ContractViolation(AssertionError):
    """The implementation answered, but not with a valid envelope or listing: outcome `fail`."""


class EscapeDetected(AssertionError):
    """The disk outside the root changed, or a canary's secret came back: outcome `fail`."""
