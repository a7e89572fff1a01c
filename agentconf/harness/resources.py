"""Where the shipped suites and fixtures live, in a checkout and in an installed wheel: the
contract finds them (contract/shipped.py), since its clauses live in the suites' category
folders; the harness reads them from here."""

from agentconf.contract.shipped import fixtures_dir, suites_dir

__all__ = ["fixtures_dir", "suites_dir"]
