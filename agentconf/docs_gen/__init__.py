"""Documentation generated from the code (the profile's JSON Schema and docs/profiles.md); a
test keeps each generated file in sync.
"""
