"""The profile's JSON Schema and docs/profiles.md are generated from the model and kept in sync;
the schema really judges TOML files the way the loader does."""

import json
import tomllib
from pathlib import Path

import jsonschema
import pytest

from agentconf.docs_gen.profile_doc import (
    DOC_PATH,
    SCHEMA_PATH,
    render_profile_schema,
    render_profiles_doc,
)
from agentconf.harness.profile.examples import EXAMPLES
from agentconf.harness.profile.model import Profile, ProfileError, parse_profile

REPO = Path(__file__).resolve().parents[3]


def test_the_committed_schema_is_the_generated_one() -> None:
    assert SCHEMA_PATH.read_text("utf-8") == render_profile_schema(), (
        "agentconf/schemas/profile.schema.json is stale: "
        "run python -m agentconf.docs_gen.profile_doc"
    )


def test_the_committed_page_is_the_generated_one() -> None:
    assert DOC_PATH.read_text("utf-8") == render_profiles_doc(), (
        "docs/profiles.md is stale: run python -m agentconf.docs_gen.profile_doc"
    )


def _keys(model: type, prefix: str = "") -> list[str]:
    """Every key of the model, dotted, descending into tables with fixed keys."""
    found = []
    for name, info in model.model_fields.items():
        key = prefix + (info.alias or name)
        found.append(key)
        schema = model.model_json_schema(by_alias=True)["properties"][info.alias or name]
        if "$ref" in schema and key.count(".") < 3:
            inner = info.annotation
            if isinstance(inner, type) and hasattr(inner, "model_fields"):
                found.extend(_keys(inner, key + "."))
    return found


def test_every_key_of_the_model_is_on_the_page() -> None:
    page = render_profiles_doc()
    for key in _keys(Profile):
        last = key.rsplit(".", 1)[-1]
        assert f"`{last}`" in page or f"[{key}" in page or f"[{last}" in page, key


def test_every_example_on_the_page_is_valid_toml_and_every_table_example_loads() -> None:
    for key, (_source, text) in EXAMPLES.items():
        data = tomllib.loads(text)  # raises on a broken example
        if text.lstrip().startswith("["):  # a whole table: the profile loader must accept it
            parse_profile(data)
        assert data, key


def test_the_schema_accepts_the_shipped_profile_and_refuses_what_the_loader_refuses() -> None:
    schema = json.loads(SCHEMA_PATH.read_text("utf-8"))
    validator = jsonschema.Draft202012Validator(schema)
    shipped = tomllib.loads((REPO / "peers/server-filesystem/agentconf.toml").read_text())
    assert not list(validator.iter_errors(shipped))
    for bad in ({"implementaton": {}}, {"tools": {"read_file": {"args": {"file": "x"}}}},
                {"tools": {"grep": {"window": "offset_limit"}}},
                {"implementation": {"call_timeout_ms": 0}}):
        assert list(validator.iter_errors(bad)), bad
        with pytest.raises(ProfileError):
            parse_profile(bad)
