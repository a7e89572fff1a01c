"""The reference's tools/list as a disguise shows it: tools and arguments renamed, edit_file's
texts nested in a list of edits, a required extra argument, paths described as absolute or
virtual, a shell's allow-list stated, and no schema title left that would name the canonical
argument (`"title": "Old Text"`)."""

from typing import Any

from .dimensions import OPERATIONS, Disguise
from .names import Names
from .shapes import required_shown, shown_description, shown_properties

PATH_ARGUMENTS = ("path", "source", "destination", "paths")
_PATH_WORDS = {
    "absolute": "Absolute path: the workspace folder's own path followed by the path inside it "
                "(a relative path is refused).",
    "virtual": "Path in the workspace's virtual file system, starting with `/` (the workspace "
               "root), e.g. `/src/app.py`.",
}


def disguise_listing(tools: list[dict[str, Any]], names: Names) -> list[dict[str, Any]]:
    names.listed(tools)
    shown = [_tool(tool, names) for tool in tools]
    selector = names.disguise.selector
    picked = [at for at, tool in enumerate(tools)
              if selector is not None and tool["name"] in selector.tools]
    if not picked:
        return shown
    merged = _behind_selector([tools[at] for at in picked], [shown[at] for at in picked], names)
    kept = [tool for at, tool in enumerate(shown) if at not in picked]
    return [*kept[:picked[0]], merged, *kept[picked[0]:]]


def _behind_selector(entries: list[dict[str, Any]], shown: list[dict[str, Any]],
                     names: Names) -> dict[str, Any]:
    """One tool for the selected ones, as a docstring-described multiplexer lists itself: the
    union of their arguments, each marked with the operations that use it, the operation
    argument required, its options in the description (and the enum, where declared)."""
    selector = names.disguise.selector
    assert selector is not None
    operations = [OPERATIONS[str(entry["name"])] for entry in entries]
    users: dict[str, list[str]] = {}
    properties: dict[str, Any] = {}
    for operation, tool in zip(operations, shown, strict=True):
        for argument, prop in tool["input_schema"]["properties"].items():
            properties.setdefault(argument, prop)
            users.setdefault(argument, []).append(operation)
    for argument, used in users.items():
        said = str(properties[argument].get("description", "")).rstrip()
        only = " only" if len(used) < len(operations) else ""
        properties[argument] = {**properties[argument],
                                "description": f"{said} ({', '.join(used)}{only})".lstrip()}
    everywhere = [argument for argument in users if all(
        argument in (tool["input_schema"].get("required") or ()) for tool in shown)]
    choice: dict[str, Any] = {"type": "string"}
    if selector.declared:
        choice["enum"] = operations
    argument = names.selector_argument
    options = " | ".join(f'"{operation}"' for operation in operations)
    description = "\n\n".join([
        f"File operations: {', '.join(operations)}.\n\nArgs:\n    {argument}: {options}",
        *(f"{operation}: {tool['description']}"
          for operation, tool in zip(operations, shown, strict=True))])
    schema = {"type": "object", "properties": {argument: choice, **properties},
              "required": [argument, *everywhere], "additionalProperties": False}
    return {"name": names.tool(selector.tools[0]), "description": description,
            "input_schema": schema}


def takes_extra(disguise: Disguise, kind: str | None) -> bool:
    """Whether a tool of this kind (the reference's `kind`) requires the extra argument."""
    extra = disguise.extra_argument
    return extra is not None and (extra.tools == "all" or kind != "read")


def _tool(entry: dict[str, Any], names: Names) -> dict[str, Any]:
    canonical = str(entry["name"])
    schema = entry.get("input_schema") or {}
    arguments = list(schema.get("properties") or {})
    description = names.rename_text(
        shown_description(canonical, str(entry.get("description", "")), names), canonical,
        arguments)
    gate = names.disguise.shell_gate
    if canonical == "bash" and gate is not None:
        description += "\nAllowed commands: " + ", ".join(gate.allowed)
    schema = input_schema(entry, names)
    if names.disguise.docstring:
        description, schema = as_docstring(description, schema)
    shown: dict[str, Any] = {"name": names.tool(canonical), "description": description,
                             "input_schema": schema}
    if entry.get("annotations"):
        shown["annotations"] = entry["annotations"]
    return shown


def input_schema(entry: dict[str, Any], names: Names) -> dict[str, Any]:
    """The disguised input schema of one reference tool (`entry` as the reference lists it)."""
    canonical = str(entry["name"])
    schema = entry.get("input_schema") or {}
    arguments = list(schema.get("properties") or {})
    nested = names.nested if canonical == "edit_file" else None
    properties: dict[str, Any] = {}
    required: list[str] = []
    for argument, prop in (schema.get("properties") or {}).items():
        if nested is not None and argument in ("old_text", "new_text"):
            continue
        reshaped = shown_properties(canonical, argument, prop, names)
        if reshaped is not None:
            properties.update(reshaped)
            continue
        shown = names.argument(canonical, argument)
        properties[shown] = _property(prop, argument, names, canonical, arguments)
        if argument in (schema.get("required") or ()):
            required.append(shown)
    required += required_shown(canonical, names)
    if nested is not None:
        properties[nested[0]] = _edits(schema, names, arguments)
        required.append(nested[0])
    if names.extra is not None and takes_extra(names.disguise, entry.get("kind")):
        properties[names.extra] = _extra(names.disguise)
        required.append(names.extra)
    disguised = {"type": "object", "properties": properties, "additionalProperties": False}
    return {**disguised, "required": required} if required else disguised


def _property(prop: dict[str, Any], argument: str, names: Names, tool: str,
              arguments: list[str]) -> dict[str, Any]:
    shown = untitled(prop)
    mode = names.disguise.paths
    if mode is not None and argument in PATH_ARGUMENTS:
        shown.pop("default", None)
        shown["description"] = _PATH_WORDS[mode]
    elif "description" in shown:
        shown["description"] = names.rename_text(str(shown["description"]), tool, arguments)
    return shown


def _edits(schema: dict[str, Any], names: Names, arguments: list[str]) -> dict[str, Any]:
    assert names.nested is not None
    _, old, new = names.nested
    properties = schema.get("properties") or {}
    item = {"type": "object", "additionalProperties": False, "required": [old, new],
            "properties": {old: _property(properties["old_text"], "old_text", names,
                                          "edit_file", arguments),
                           new: _property(properties["new_text"], "new_text", names,
                                          "edit_file", arguments)}}
    return {"type": "array", "minItems": 1, "items": item,
            "description": f"The edits to make, in order: each replaces `{old}` with `{new}`."}


def _extra(disguise: Disguise) -> dict[str, Any]:
    extra = disguise.extra_argument
    assert extra is not None
    if extra.value is None:
        return {"type": "string", "minLength": 1,
                "description": "Why you make this call, in a few words (any text). Required."}
    prop: dict[str, Any] = {"type": "string",
                            "description": f'Must be "{extra.value}". Required.'}
    return {**prop, "enum": [extra.value]} if extra.declared else prop


def untitled(value: Any) -> Any:
    """A schema without its `title`s (pydantic's, which spell the canonical names)."""
    if isinstance(value, dict):
        return {key: untitled(item) for key, item in value.items() if key != "title"}
    if isinstance(value, list):
        return [untitled(item) for item in value]
    return value


def as_docstring(description: str, schema: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """The tool as FastMCP lists a Python function: each property's description moved to an
    `Args:` line of the tool's description, a list of objects' items left open
    (`additionalProperties`) with their keys told in braces on that line."""
    lines, properties = [], {}
    for name, prop in (schema.get("properties") or {}).items():
        said = " ".join(str(prop.get("description", "")).split()) or name
        shown = {key: value for key, value in prop.items() if key != "description"}
        items = prop.get("items")
        if isinstance(items, dict) and isinstance(items.get("properties"), dict):
            keys = ", ".join(items["properties"])
            shown["items"] = {"type": "object", "additionalProperties": {"type": "string"}}
            said = f"List of {{{keys}}} dictionaries. {said}"
        lines.append(f"    {name}: {said}")
        properties[name] = shown
    text = f"{description.rstrip()}\n\nArgs:\n" + "\n".join(lines) if lines else description
    return text, {**schema, "properties": properties}

