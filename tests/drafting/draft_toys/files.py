"""Shapes of the file tools themselves: where a path may lead, how a read is windowed, which
edits are refused before their text is looked for."""

import json
import os
from typing import Any

from draft_toys.plain import INTEGER, STRING, Answer, Handler, Refused, Toy


class ReadGuard(Toy):
    """An edit of a file never read fails, and so does one changed on disk since."""

    def edit_refusal(self, path: str, args: dict[str, Any]) -> Answer | None:
        if path not in self.seen:
            return self.fail("unread", "Edit", args["file_path"])
        if self.seen[path] != os.stat(path).st_mtime_ns:
            return self.fail("stale", "Edit", args["file_path"])
        return super().edit_refusal(path, args)


class OutsideGuard(Toy):
    """Reaches outside its root (no confinement), and an edit there fails "File has not been
    read yet" until the file is read (Claude Code 2.1.331's Edit); none inside the root."""

    confined = False

    def edit_refusal(self, path: str, args: dict[str, Any]) -> Answer | None:
        if not path.startswith(self.root + os.sep) and path not in self.seen:
            return self.fail("unread", "Edit", args["file_path"])
        return super().edit_refusal(path, args)


class EditsFail(Toy):
    """Every edit fails, read or not (so no read guard can be told)."""

    def edit_refusal(self, path: str, args: dict[str, Any]) -> Answer | None:
        return self.fail("disabled", "Edit", args["file_path"])


class ZeroBased(Toy):
    """Read's offset counts from 0."""

    first_line = 0


class SayBase(Toy):
    """Read's schema says where its offset counts from (with zero-based: from 0)."""

    def offset_schema(self) -> dict[str, Any]:
        return dict(INTEGER, description="the line to start at, counting from 0")


class StartEnd(Toy):
    """Read's window is start_line/end_line (1-based, inclusive); a window that ends before it
    starts fails "reversed: <path>" (READ-12's refusal)."""

    def read_properties(self) -> dict[str, Any]:
        return {"file_path": STRING, "start_line": INTEGER, "end_line": INTEGER}

    def window(self, lines: list[str], args: dict[str, Any]) -> str:
        start, end = args.get("start_line", 1), args.get("end_line", len(lines))
        if end < start:
            raise Refused("reversed")
        return super().window(lines, {"offset": start, "limit": end - start + 1})


class NoRead(Toy):
    """No Read tool at all."""

    def tools(self) -> list[dict[str, Any]]:
        return [tool for tool in super().tools() if tool["name"] != "Read"]


class ListsFolders(Toy):
    """A read of a folder lists it (success): IS_DIRECTORY only from edits and writes."""

    def folder_read(self, path: str, args: dict[str, Any]) -> Answer:
        return {"success": True, "data": "\n".join(sorted(os.listdir(path)))}


class FixedAllow(Toy):
    """Its allowed folder is $TOY_ALLOWED whatever its root (fast-filesystem-mcp 3.5.2 allows
    HOME and /tmp and ignores the folder it is started with)."""

    def resolve(self, path: str) -> str:
        full = super().resolve(path)
        allowed = os.path.realpath(os.environ.get("TOY_ALLOWED", "/"))
        if not full.startswith(allowed + os.sep):
            raise PermissionError(full)
        return full


class SayAbsolute(Toy):
    """Its file_path is described as "Absolute path to the file"."""

    def file_path_schema(self) -> dict[str, Any]:
        return dict(STRING, description="Absolute path to the file")


class VirtualRoot(SayAbsolute):
    """Its file_path is described as absolute, and "/" is its root: `/a.txt` is root/a.txt
    (deepagents' FilesystemBackend(virtual_mode=True)), so a host path is root/<host path>."""

    def resolve(self, path: str) -> str:
        return super().resolve(path.lstrip("/"))


class AbsoluteOnly(Toy):
    """Its file tools refuse a relative file_path, though no description says so, as
    mcp-code-editor 0.1.24 does: a success whose JSON says {"success": false, "error":
    "ValidationError", "message": "Path must be absolute, got relative path: <path>"}."""

    def answer(self, name: str, handler: Handler, args: dict[str, Any]) -> Answer:
        if "file_path" in args and not os.path.isabs(args["file_path"]):
            return {"success": True, "data": json.dumps({  # a success saying it failed
                "success": False, "error": "ValidationError",
                "message": f"Path must be absolute, got relative path: {args['file_path']}"})}
        return super().answer(name, handler, args)


class WriteEncoding(Toy):
    """Write takes an `encoding` its schema does not require (one schema serves several
    operations, and only writes need it): a write without it fails naming it."""

    # Where the value "utf-8" is told: the property's own description, or the tool's.
    ENCODING_SAID = 'The text encoding. Must be "utf-8" for a write.'
    DOCSTRING = ""

    def tools(self) -> list[dict[str, Any]]:
        listed = super().tools()
        for entry in listed:
            if entry["name"] == "Write":
                entry["input_schema"]["properties"]["encoding"] = dict(
                    STRING, description=self.ENCODING_SAID)
                entry["description"] += self.DOCSTRING
        return listed

    def write(self, args: dict[str, Any]) -> Answer:
        if args.get("encoding") != "utf-8":
            return self.fail("encoding is required for a write, got", "Write",
                             repr(args.get("encoding")))
        return super().write(args)


class WriteEncodingInDocstring(WriteEncoding):
    """The same, its schema saying only which operation takes `encoding`, and the value told in
    the second of the description's `Args:` sections (FastMCP's docstring, one per operation)."""

    ENCODING_SAID = "(writes only)"
    DOCSTRING = ("\n\nArgs:\n    file_path: The file.\n\nA write:\n\nArgs:\n"
                 '    content: The new text.\n    encoding: Must be "utf-8".\n')
