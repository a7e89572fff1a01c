"""`agentconf learn`: a course from a naive tool system to a conformant one, lesson by lesson.

The plan is data (course.toml, and each category's notes in suites/<category>/course.toml);
each lesson is a set of the contract's clauses, run with the suites like any `agentconf run
--clauses`, and taught from the contract, the reference and the mutant gallery.
"""
