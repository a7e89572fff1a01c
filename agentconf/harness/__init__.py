"""The conformance harness: pytest plugin, adapters, workspace and disk oracle, runner, reports."""
