"""The kit checking itself: the mutant gallery's kill rate (`mutants`) and which lines of the
reference the contract reaches (`coverage`), both behind `agentconf selftest`."""
