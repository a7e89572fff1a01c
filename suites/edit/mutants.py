"""EDIT mutants: replacements that edit the wrong place, or guards that are missing."""

import os
import re
from typing import Any

from agentconf.selfcheck.mutant_base import Mutant, failed, is_call, succeeded


def _utf8(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


class EditNotWritten(Mutant):
    """Answers success for an edit but never writes the file (the write was lost)."""

    KILLS = ("EDIT-01",)

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        if is_call(name, arguments, "edit_file") and isinstance(arguments.get("path"), str):
            target = self.lexical(arguments["path"])
            before = target.read_bytes() if target.is_file() else None
            answer = await super().call_tool(name, arguments)
            if before is not None and answer.get("success"):
                target.write_bytes(before)
            return answer
        return await super().call_tool(name, arguments)


class NumberedLinesCountAsMatches(Mutant):
    """Counts an old_text's matches with its digits read as any digit: `slot-01: old` also
    matches `slot-00: old`, so a unique text among numbered lines is refused as matching
    several places."""

    KILLS = ("EDIT-01",)
    KNOWN_FROM = ("gia-file-tools 0.1.2's replace_text, whose fuzzy strategies refuse a unique "
                  "snippet among lines that differ from it in a number")

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        old = arguments.get("old_text") if is_call(name, arguments, "edit_file") else None
        path = arguments.get("path") if old is not None else None
        if isinstance(old, str) and isinstance(path, str) and re.search(r"\d", old):
            target = self.lexical(path)
            text = target.read_bytes().decode("utf-8", "replace") if target.is_file() else ""
            blurred = re.compile(re.sub(r"\d", r"\\d", re.escape(old)))
            if text.count(old) == 1 and len(blurred.findall(text)) > 1:
                return failed("TEXT_MULTIPLE_MATCHES", "Target snippet matches multiple "
                              "locations. Provide a more unique snippet.")
        return await super().call_tool(name, arguments)


class NotFoundIsSilentSuccess(Mutant):
    """Answers success when old_text does not occur, leaving the file as it was."""

    KILLS = ("EDIT-02",)

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        answer = await super().call_tool(name, arguments)
        if answer.get("error") == "TEXT_NOT_FOUND":
            return succeeded("No changes made.")
        return answer


class AlreadyAppliedIsSuccess(Mutant):
    """Answers success when old_text does not occur but new_text does ("already applied"): an
    edit sent twice, or one whose old_text the model misremembers, reads as done."""

    KILLS = ("EDIT-02",)

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        answer = await super().call_tool(name, arguments)
        if answer.get("error") == "TEXT_NOT_FOUND" and is_call(name, arguments, "edit_file"):
            target = self.lexical(str(arguments.get("path")))
            new = arguments.get("new_text")
            if isinstance(new, str) and new and target.is_file() and new in target.read_text(
                    "utf-8", "replace"):
                return succeeded("The edit is already applied.")
        return answer


class FirstMatchReplace(Mutant):
    """Replaces the first occurrence when old_text occurs several times (`str.replace(a, b, 1)`)."""

    KILLS = ("EDIT-03",)
    KNOWN_FROM = "String.prototype.replace with a string pattern replaces the first match only"

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        answer = await super().call_tool(name, arguments)
        if (
            is_call(name, arguments, "edit_file")
            and answer.get("error") == "TEXT_MULTIPLE_MATCHES"
        ):
            target = self.lexical(arguments["path"])
            data = target.read_bytes().decode("utf-8")
            target.write_bytes(
                data.replace(arguments["old_text"], arguments["new_text"], 1).encode("utf-8")
            )
            return succeeded(f"Edited {arguments['path']}")
        return answer


class OneCodeForNotFoundAndMultiple(Mutant):
    """Answers TEXT_NOT_FOUND for a text that occurs twice: the model cannot tell which recovery
    (re-read, or add context) it needs."""

    KILLS = ("EDIT-03",)

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        answer = await super().call_tool(name, arguments)
        if answer.get("error") == "TEXT_MULTIPLE_MATCHES":
            return {**answer, "error": "TEXT_NOT_FOUND"}
        return answer


class ReplaceAllReplacesOne(Mutant):
    """Accepts replace_all but replaces the first occurrence only."""

    KILLS = ("EDIT-04",)

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        if is_call(name, arguments, "edit_file") and arguments.get("replace_all") is True:
            answer = await super().call_tool(name, {**arguments, "replace_all": False})
            if answer.get("error") != "TEXT_MULTIPLE_MATCHES":
                return answer
            target = self.lexical(arguments["path"])
            text = target.read_bytes().decode("utf-8")
            new = text.replace(arguments["old_text"], arguments["new_text"], 1)
            target.write_bytes(new.encode("utf-8"))
            return succeeded(f"Edited {arguments['path']}")
        return await super().call_tool(name, arguments)


class EmptyOldTextInserts(Mutant):
    """Accepts an empty old_text and inserts new_text at the start of the file."""

    KILLS = ("EDIT-05",)

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        if is_call(name, arguments, "edit_file") and arguments.get("old_text") == "":
            target = self.lexical(str(arguments["path"]))
            if target.is_file():
                target.write_bytes(arguments["new_text"].encode() + target.read_bytes())
                return succeeded(f"Edited {arguments['path']}")
        return await super().call_tool(name, arguments)


class NoopEditRewrites(Mutant):
    """An edit whose old_text equals new_text rewrites the file with normalised line endings."""

    KILLS = ("EDIT-06",)

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        answer = await super().call_tool(name, arguments)
        if (
            is_call(name, arguments, "edit_file")
            and arguments.get("old_text") == arguments.get("new_text")
            and self.lexical(str(arguments["path"])).is_file()
        ):
            target = self.lexical(arguments["path"])
            data = target.read_bytes().replace(b"\r\n", b"\n")
            target.write_bytes(data if data.endswith(b"\n") else data + b"\n")
        return answer


class CurlyQuotesNotMatched(Mutant):
    """Matches old_text exactly: straight quotes never match a file's curly ones."""

    KILLS = ("EDIT-07",)

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        if is_call(name, arguments, "edit_file") and isinstance(arguments.get("old_text"), str):
            target = self.lexical(str(arguments.get("path", "")))
            if target.is_file():
                text = target.read_bytes().decode("utf-8", "replace").replace("\r\n", "\n")
                if arguments["old_text"].replace("\r\n", "\n") not in text:
                    return failed("TEXT_NOT_FOUND", "Text not found.")
        return await super().call_tool(name, arguments)


class NoReadBeforeEdit(Mutant):
    """Edits and overwrites files the session never read (the guard is missing: the mutant reads
    on the model's behalf just before)."""

    KILLS = ("EDIT-08", "EDIT-13")

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        if name in ("edit_file", "write_file") and isinstance(arguments, dict):
            path = arguments.get("path")
            if isinstance(path, str) and self.lexical(path).is_file():
                await super().call_tool("read_file", {"path": path})
        return await super().call_tool(name, arguments)


class NoStaleReadCheck(Mutant):
    """Ignores that the file changed on disk since it was read, and edits the new content."""

    KILLS = ("EDIT-09",)

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        answer = await super().call_tool(name, arguments)
        if answer.get("error") == "STALE_READ":
            await super().call_tool("read_file", {"path": arguments["path"]})
            return await super().call_tool(name, arguments)
        return answer


class NoDiff(Mutant):
    """Successful edits carry no diff."""

    KILLS = ("EDIT-10",)

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        answer = await super().call_tool(name, arguments)
        answer.pop("diff", None)
        return answer


class EditCreatesMissingFile(Mutant):
    """edit_file of a missing file creates it with new_text."""

    KILLS = ("EDIT-11",)

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        answer = await super().call_tool(name, arguments)
        if is_call(name, arguments, "edit_file") and answer.get("error") == "NOT_FOUND":
            target = self.lexical(arguments["path"])
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(arguments["new_text"])
            return succeeded(f"Created {arguments['path']}")
        return answer


class ReplacementPatternsExpanded(Mutant):
    """Inserts new_text through a regex-style replacement, so `$&` becomes the match and `$$` a
    single `$` (JavaScript's String.prototype.replace semantics)."""

    KILLS = ("EDIT-12",)
    KNOWN_FROM = "String.prototype.replace special replacement patterns"

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        if is_call(name, arguments, "edit_file") and isinstance(arguments.get("new_text"), str):
            old = arguments.get("old_text", "")
            new = arguments["new_text"].replace("$$", "\x00").replace("$&", str(old))
            arguments = {**arguments, "new_text": new.replace("\x00", "$")}
        return await super().call_tool(name, arguments)


class NoParentsCreated(Mutant):
    """write_file fails when the parent folder does not exist."""

    KILLS = ("EDIT-14",)

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        if is_call(name, arguments, "write_file") and isinstance(arguments.get("path"), str):
            target = self.lexical(arguments["path"])
            if self.inside_by_components(target) and not target.parent.exists():
                return failed("NOT_FOUND", f"Folder of {arguments['path']} does not exist.")
        return await super().call_tool(name, arguments)


class ModeNotKept(Mutant):
    """Temp file + rename without copying the mode: an executable loses its x bits."""

    KILLS = ("EDIT-15",)

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        answer = await super().call_tool(name, arguments)
        if name in ("edit_file", "write_file") and answer.get("success"):
            os.chmod(self.lexical(arguments["path"]), 0o644)
        return answer


class TempFileLeft(Mutant):
    """Writes through a temp file and leaves it behind."""

    KILLS = ("EDIT-16",)

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        answer = await super().call_tool(name, arguments)
        if is_call(name, arguments, "write_file") and answer.get("success"):
            target = self.lexical(arguments["path"])
            (target.parent / f".{target.name}.tmp").write_text(arguments["content"])
        return answer


class DirectoryEditRaises(Mutant):
    """Lets `IsADirectoryError` escape when edit_file or write_file is given a folder."""

    KILLS = ("EDIT-17", "RESULT-04")

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        if name in ("edit_file", "write_file") and isinstance(arguments, dict):
            path = arguments.get("path")
            if isinstance(path, str) and self.lexical(path).is_dir():
                raise IsADirectoryError(21, "Is a directory", path)
        return await super().call_tool(name, arguments)


class BinaryEditedWithReplacement(Mutant):
    """Decodes a file that is not UTF-8 with errors="replace", edits it and writes it back: every
    byte the decoder did not understand becomes U+FFFD on disk."""

    KILLS = ("EDIT-18",)

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        if is_call(name, arguments, "edit_file") and isinstance(arguments.get("path"), str):
            target = self.lexical(arguments["path"])
            old, new = arguments.get("old_text"), arguments.get("new_text")
            if target.is_file() and isinstance(old, str) and isinstance(new, str):
                data = target.read_bytes()
                text = data.decode("utf-8", errors="replace")
                if not _utf8(data) and text.count(old) == 1:
                    target.write_bytes(text.replace(old, new).encode("utf-8"))
                    return succeeded(f"Edited {arguments['path']}.")
        return await super().call_tool(name, arguments)


class OverwriteReadsOldAsText(Mutant):
    """Reads the old file through read_file's guards to diff it, so overwriting a file too large to
    read, or one that is not UTF-8, fails."""

    KILLS = ("EDIT-19",)

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        if is_call(name, arguments, "write_file") and isinstance(arguments.get("path"), str):
            target = self.lexical(arguments["path"])
            if target.is_file():
                if target.stat().st_size > self.limits.max_read_bytes:
                    return failed("FILE_TOO_LARGE", "The file is too large to read.")
                if not _utf8(target.read_bytes()):
                    return failed("BINARY_FILE", "The file is binary.")
        return await super().call_tool(name, arguments)
