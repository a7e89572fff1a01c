"""The session with an implementation: canonical calls in, the profile's names and shapes out,
answers normalised, listings read, and the one place a missing capability makes a check n/a.
"""
