"""The mutant gallery: implementations each wrong in exactly one way, and the clauses catching them.

Every mutant is the reference tool system with one defect grafted on, so the only thing that
differs from a conforming implementation is the defect its docstring names. `KILLS` lists the
clause ids whose checks must fail against it. See `gallery.py` for the catalogue and how each
mutant is run (in process with `python:`, or as a `cmd:` program).
"""
