"""pytest plugin (entry point `pytest11`): built out by the harness work."""
