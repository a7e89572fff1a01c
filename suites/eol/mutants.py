"""EOL mutants: edits that rewrite bytes outside the replaced span."""

import re
from typing import Any

from agentconf.selfcheck.mutant_base import Mutant


class _AfterEdit(Mutant):
    """Runs the reference's edit, then passes the file's bytes through `rewrite`."""

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        answer = await super().call_tool(name, arguments)
        if name == "edit_file" and answer.get("success"):
            target = self.lexical(arguments["path"])
            target.write_bytes(self.rewrite(target.read_bytes()))
        return answer

    def rewrite(self, data: bytes) -> bytes:
        return data


class WholeFileEolRewrite(_AfterEdit):
    """Normalises every line ending of the file to its first one on write (a whole-file rewrite)."""

    KILLS = ("EOL-03", "EOL-06")

    def rewrite(self, data: bytes) -> bytes:
        first = re.search(rb"\r\n|\n", data)
        eol = first.group(0) if first else b"\n"
        return re.sub(rb"\r\n|\n", eol, data)


class TrailingWhitespaceStripped(_AfterEdit):
    """Strips trailing blanks from every line on write: an editor habit applied to a file."""

    KILLS = ("EOL-02", "EOL-06")

    def rewrite(self, data: bytes) -> bytes:
        return re.sub(rb"[ \t]+(?=\r?\n|$)", b"", data)


class LfOnlyWrite(_AfterEdit):
    """Writes the edited file with LF line endings: a CRLF file comes back LF."""

    KILLS = ("EOL-01", "EOL-06")

    def rewrite(self, data: bytes) -> bytes:
        return data.replace(b"\r\n", b"\n")


class BomDropped(_AfterEdit):
    """Decodes with utf-8-sig and writes plain utf-8, dropping the byte-order mark."""

    KILLS = ("EOL-04", "EOL-06")

    def rewrite(self, data: bytes) -> bytes:
        return data.removeprefix(b"\xef\xbb\xbf")


class FinalNewlineDropped(_AfterEdit):
    """Rebuilds the file as `"\\n".join(lines)`, losing the final newline."""

    KILLS = ("EOL-05", "EOL-06")

    def rewrite(self, data: bytes) -> bytes:
        return data[:-2] if data.endswith(b"\r\n") else data.removesuffix(b"\n")


class CrlfNotMatched(Mutant):
    """Matches old_text against the raw text, so LF old_text never matches a CRLF file."""

    KILLS = ("EOL-07",)

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        if name == "edit_file" and isinstance(arguments, dict):
            target = self.lexical(str(arguments.get("path", "")))
            old = arguments.get("old_text")
            if (
                target.is_file()
                and isinstance(old, str)
                and "\n" in old
                and old not in target.read_bytes().decode("utf-8", "replace")
            ):
                return {"success": False, "error": "TEXT_NOT_FOUND", "data": "Text not found."}
        return await super().call_tool(name, arguments)


class WriteConvertsEol(Mutant):
    """write_file converts CRLF in the content to LF before writing."""

    KILLS = ("EOL-08",)

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        if (
            name == "write_file"
            and isinstance(arguments, dict)
            and isinstance(arguments.get("content"), str)
        ):
            arguments = {**arguments, "content": arguments["content"].replace("\r\n", "\n")}
        return await super().call_tool(name, arguments)


class WriteAddsFinalNewline(Mutant):
    """write_file ends every file it writes with a newline the content did not have."""

    KILLS = ("EOL-08",)
    KNOWN_FROM = "mcp-text-editor 1.2.2 stores 'absolute' as 'absolute\\n'"

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        if (
            name == "write_file"
            and isinstance(arguments, dict)
            and isinstance(arguments.get("content"), str)
            and not arguments["content"].endswith("\n")
        ):
            arguments = {**arguments, "content": arguments["content"] + "\n"}
        return await super().call_tool(name, arguments)
