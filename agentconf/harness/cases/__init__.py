"""Golden cases: the data-driven case files, loaded, linted and played."""
