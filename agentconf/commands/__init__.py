"""Subcommands of `agentconf`, one module each (see agentconf/cli.py)."""
