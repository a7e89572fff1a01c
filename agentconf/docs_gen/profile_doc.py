"""The profile's JSON Schema and docs/profiles.md, both generated from the pydantic model.

    python -m agentconf.docs_gen.profile_doc      # rewrites both (a test keeps them in sync)
"""

import json
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from agentconf.contract import CANONICAL_TOOLS
from agentconf.harness.profile.examples import EXAMPLES
from agentconf.harness.profile.model import Profile
from agentconf.harness.profile.tables import PLACEHOLDERS
from agentconf.harness.profile.tool_mapping import TOOL_MODELS, UNIT_ARGUMENTS, ToolMapping

SCHEMA_NAME = "profile.schema.json"
SCHEMA_ID = "https://agentconf.dev/schemas/profile.schema.json"
SCHEMA_PATH = Path(__file__).resolve().parent.parent / "schemas" / SCHEMA_NAME
DOC_PATH = Path(__file__).resolve().parents[2] / "docs" / "profiles.md"
# Tables documented key by key, in page order; the others get one example for the table.
_KEYED = ("implementation",)


def profile_json_schema() -> dict[str, Any]:
    schema = Profile.model_json_schema(by_alias=True)
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["$id"] = SCHEMA_ID
    schema["title"] = "agentconf.toml"
    schema["description"] = ("An agentconf profile: how agentconf reaches and judges one "
                             "implementation of the tool contract. See docs/profiles.md.")
    return schema


def render_profile_schema() -> str:
    return json.dumps(profile_json_schema(), indent=2, sort_keys=True, ensure_ascii=False) + "\n"


# ---- the page ----------------------------------------------------------------------------------


def render_profiles_doc() -> str:
    out: list[str] = [_INTRO, _placeholders()]
    fields = Profile.model_fields
    for name, info in fields.items():
        key = info.alias or name
        annotation = info.annotation
        if key == "implementation":
            out.append(_keyed_table("[implementation]", Profile.model_fields[name].annotation,
                                    "implementation"))
        elif key == "tools":
            out.append(_tools())
        elif key == "setup":
            from agentconf.harness.profile.tables import Setup

            files = Setup.model_fields["files"].description or ""
            out.append(_section("[setup.files]", files, "setup.files"))
            state = Setup.model_fields["state"].description or ""
            out.append(_section("[setup] `state`", state, "setup.state"))
            requests = Setup.model_fields["requests"].description or ""
            out.append(_section("[[setup.requests]]", f"{requests}. Keys: `method` (the "
                                "JSON-RPC method), `params` (a table)", "setup.requests"))
            commands = Setup.model_fields["commands"].description or ""
            out.append(_section("[setup] `commands`", commands, "setup.commands"))
        elif key == "modes":
            out.append(_modes())
        elif key == "error_patterns":
            out.append(_error_patterns())
        elif key in ("limits", "capabilities"):
            out.append(_listed_table(key, annotation))
        else:
            out.append(_section(f"[{key}]", info.description or "", key))
    return "\n".join(out).rstrip() + "\n"


_INTRO = """\
# Profiles (`agentconf.toml`)

<!-- Generated from agentconf/harness/profile/ by `python -m agentconf.docs_gen.profile_doc`;
     tests/harness/profile/test_profile_schema_and_doc.py keeps it in sync. Do not edit by hand. -->

A profile tells agentconf how to start one implementation and how its tools, arguments, answers,
codes and limits map onto the contract's. `agentconf init --from SPEC` drafts one from the
implementation's own `tools/list`; `agentconf run --impl agentconf.toml` uses it.

Every mistake in a profile is reported at once, each naming its table and key, and the run stops
with exit status 2; an unknown key is an error, never ignored. The JSON Schema of the file is
`agentconf/schemas/profile.schema.json`: with taplo or Even Better TOML, put
`#:schema ./profile.schema.json` (a path to that file) on the profile's first line to get
completion and checks in the editor.
"""


def _placeholders() -> str:
    rows = "\n".join(f"| `{{{name}}}` | {meaning} |" for name, meaning in PLACEHOLDERS.items())
    return (
        "## Placeholders\n\n"
        "Filled in `spec`, `[env]` values, `[setup.files]` paths and contents, `[modes]`, "
        "`[tools.X] defaults` values and `[[setup.requests]]` params, per workspace (`{root}`, "
        "`{home}`, `{tmp}`) or once (`{profile_dir}`, `{cache}`, `{peers_cache}`). An unknown "
        "placeholder is an error, except in defaults and params, whose other braces are the "
        "implementation's own.\n\n"
        "| placeholder | what |\n| --- | --- |\n" + rows + "\n"
    )


def _example(key: str) -> str:
    if key not in EXAMPLES:
        raise KeyError(f"no example for profile key {key!r}: add one to profile/examples.py")
    source, toml = EXAMPLES[key]
    return f"Example ({source}):\n\n```toml\n{toml}\n```\n"


def _type_of(schema: dict[str, Any]) -> str:
    if "anyOf" in schema:
        kinds = [_type_of(option) for option in schema["anyOf"] if option.get("type") != "null"]
        return " or ".join(kinds)
    if "enum" in schema:
        return " \\| ".join(json.dumps(value) for value in schema["enum"])
    if "const" in schema:
        return json.dumps(schema["const"])
    kind = schema.get("type")
    if kind == "array":
        return f"array of {_type_of(schema.get('items', {}))}"
    if kind == "object" or "$ref" in schema:
        return "table"
    if kind == "integer" and schema.get("exclusiveMinimum") == 0:
        return "positive integer"
    return str(kind or "any value")


def _key_line(model: type[BaseModel], name: str, prefix: str = "", level: int = 3) -> str:
    info = model.model_fields[name]
    key = info.alias or name
    prop = model.model_json_schema(by_alias=True)["properties"][key]
    default = "" if info.is_required() else _default(info.get_default(call_default_factory=True))
    heading = f"{'#' * level} `{prefix}{key}` · {_type_of(prop)}{default}"
    return f"{heading}\n\n{info.description or ''}\n"


def _default(value: Any) -> str:
    if value is None or value in ([], {}, ""):
        return ""
    if isinstance(value, BaseModel):
        return ""
    return f" · default `{json.dumps(value)}`"


def _keyed_table(title: str, model: Any, prefix: str) -> str:
    parts = [f"## {title}\n\n{_sentence(model.__doc__)}\n"]
    for name in model.model_fields:
        parts.append(_key_line(model, name))
        parts.append(_example(f"{prefix}.{name}"))
    return "\n".join(parts)


def _section(title: str, text: str, key: str) -> str:
    return f"## {title}\n\n{text}\n\n{_example(key)}"


def _listed_table(key: str, model: Any) -> str:
    rows = []
    for name, info in model.model_fields.items():
        rows.append(f"| `{name}` | {info.description} |")
    doc = _sentence(model.__doc__)
    if key == "capabilities":
        doc += (" Unset, a tool capability is present when the mapped tool is advertised, and a "
                "feature is present unless the mapped tool's input schema lacks the argument it "
                "needs (line_window: start_line/end_line, replace_all, shell_timeout: "
                "timeout_ms, list_pattern: pattern); then it is n/a with a note naming the key "
                "to set. shell_confined is the exception: absent unless the shell tool's own "
                "description or annotations claim a sandbox (SHELL-13 is then judged), and the "
                "report states \"the shell is not confined\" as a fact otherwise.")
    return (f"## [{key}]\n\n{doc}\n\n| key | meaning |\n| --- | --- |\n" + "\n".join(rows)
            + "\n\n" + _example(key))


def _tools() -> str:
    rows = []
    for name, tool in CANONICAL_TOOLS.items():
        model = TOOL_MODELS[name]
        own = [key for key in model.model_fields if key not in ToolMapping.model_fields]
        arguments = ", ".join(
            f"`{arg}`" + ("" if arg in tool.required else "?") for arg in tool.arguments)
        rows.append(f"| `{name}` | {arguments} | {', '.join(f'`{k}`' for k in own) or '—'} |")
    parts = [
        "## [tools.&lt;canonical&gt;]\n\n"
        "One table per canonical tool whose name, arguments or answers differ from the "
        "contract's; a tool without a table is called by its canonical name with canonical "
        "arguments. A canonical argument that the tool's input schema has no property for is "
        "never forwarded silently: it is dropped with a note in the check's evidence, and a "
        "capability that needs it (line_window, replace_all, shell_timeout) is n/a, with a note "
        "naming the key to set.\n",
        "| tool | canonical arguments | its own keys |\n| --- | --- | --- |\n" + "\n".join(rows)
        + "\n",
    ]
    for name in ToolMapping.model_fields:
        parts.append(_key_line(ToolMapping, name))
        parts.append(_example(f"tools.{name}"))
        sub = _unwrap_model(ToolMapping.model_fields[name].annotation)
        if sub is not None:
            for inner in sub.model_fields:
                parts.append(_key_line(sub, inner, f"{name}.", 4))
                parts.append(_example(f"tools.{name}.{inner}"))
                marker = _unwrap_model(sub.model_fields[inner].annotation)
                for leaf in marker.model_fields if marker is not None else ():
                    parts.append(_key_line(marker, leaf, f"{name}.{inner}.", 5))
                    parts.append(_example(f"tools.{name}.{inner}.{leaf}"))
    extra: dict[str, type[BaseModel]] = {}
    for model in TOOL_MODELS.values():
        for key in model.model_fields:
            if key not in ToolMapping.model_fields:
                extra.setdefault(key, model)
    for key, model in extra.items():
        owners = [name for name, m in TOOL_MODELS.items() if key in m.model_fields]
        parts.append(_key_line(model, key).replace("\n\n", f" · on {', '.join(owners)}\n\n", 1))
        parts.append(_example(f"tools.{key}"))
    parts.append(_path_tools())
    units = ", ".join(f"`{arg}`: {' or '.join(map(repr, kinds))}"
                      for arg, kinds in UNIT_ARGUMENTS.items())
    parts.append(f"Units known: {units}.\n")
    return "\n".join(parts)


def _path_tools() -> str:
    from agentconf.harness.profile.tool_mapping import PathTool

    doc = " ".join((PathTool.__doc__ or "").split()).split(": ", 1)[-1]
    parts = [f"## [tools.extra.&lt;name&gt;]\n\n{doc}\n"]
    for name in PathTool.model_fields:
        parts.append(_key_line(PathTool, name))
    parts.append(_example("tools.extra"))
    return "\n".join(parts)


def _error_patterns() -> str:
    from agentconf.harness.profile.tables import ErrorPattern

    parts = [_section("[[error_patterns]]", Profile.model_fields["pattern_list"].description
                      or "", "error_patterns")]
    for name in ErrorPattern.model_fields:
        parts.append(_key_line(ErrorPattern, name))
        parts.append(_example(f"error_patterns.{name}"))
    return "\n".join(parts)


def _modes() -> str:
    from agentconf.harness.profile.tables import LaunchMode

    parts = [_section("[modes.&lt;name&gt;]", _sentence(LaunchMode.__doc__)
                      + " Names are lower case; code reads them as `Profile.modes`.", "modes")]
    for name in LaunchMode.model_fields:
        parts.append(_key_line(LaunchMode, name))
        parts.append(_example(f"modes.{name}"))
    return "\n".join(parts)


def _sentence(doc: str | None) -> str:
    """A model's docstring without its `[table]:` head, as a sentence."""
    text = (doc or "").split(":", 1)[-1].strip()
    return text[:1].upper() + text[1:]


def _unwrap_model(annotation: Any) -> type[BaseModel] | None:
    import typing

    candidates = typing.get_args(annotation) or (annotation,)
    for candidate in candidates:
        if isinstance(candidate, type) and issubclass(candidate, BaseModel):
            return candidate
    return None


def main() -> None:
    SCHEMA_PATH.write_text(render_profile_schema(), encoding="utf-8")
    print(SCHEMA_PATH)
    if DOC_PATH.parent.is_dir():
        DOC_PATH.write_text(render_profiles_doc(), encoding="utf-8")
        print(DOC_PATH)


if __name__ == "__main__":
    main()
