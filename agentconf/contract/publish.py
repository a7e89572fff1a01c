"""Writes the published JSON Schemas from the contract's Python types (one source of truth)."""

from pathlib import Path

from .envelope import envelope_json_schema, render_schema
from .protocol import protocol_json_schema

SCHEMA_DIR = Path(__file__).resolve().parent.parent / "schemas"


def published_schemas() -> dict[str, str]:
    return {
        "envelope.schema.json": render_schema(envelope_json_schema()),
        "protocol.schema.json": render_schema(protocol_json_schema()),
    }


def write_schemas(directory: Path = SCHEMA_DIR) -> list[Path]:
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for name, text in published_schemas().items():
        path = directory / name
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return written


if __name__ == "__main__":
    for path in write_schemas():
        print(path)
