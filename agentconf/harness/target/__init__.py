"""The implementation under test: which one (spec), how its process is launched, reused and
started in a mode, and the adapters that speak to it.
"""
