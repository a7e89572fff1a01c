"""READ mutants: classification, windows and bounds of read_file."""

from pathlib import Path
from typing import Any, ClassVar

from agentconf.selfcheck.mutant_base import Mutant, failed, is_call, succeeded


def _numbered(lines: list[str], first: int = 1) -> str:
    return "\n".join(f"{n:>6}\t{line}" for n, line in enumerate(lines, first))


class MissingFileReadsEmpty(Mutant):
    """Reads a missing file as empty text (a `read_text() if exists() else ""` guard): the model
    is told the file is there and empty."""

    KILLS = ("READ-02",)

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        answer = await super().call_tool(name, arguments)
        if name == "read_file" and answer.get("error") == "NOT_FOUND":
            return succeeded("")
        return answer


class BinaryReturnedAsText(Mutant):
    """Decodes a binary file with errors='replace' and returns it."""

    KILLS = ("READ-04",)

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        answer = await super().call_tool(name, arguments)
        if name == "read_file" and answer.get("error") == "BINARY_FILE":
            data = self.lexical(arguments["path"]).read_bytes().decode("latin-1")
            return succeeded(_numbered(data.split("\n")))
        return answer


class DirectoryIsAnIoError(Mutant):
    """Reports reading a folder as a generic IO_ERROR."""

    KILLS = ("READ-03",)

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        answer = await super().call_tool(name, arguments)
        if answer.get("error") == "IS_DIRECTORY":
            return {**answer, "error": "IO_ERROR"}
        return answer


class NoSizeLimit(Mutant):
    """Reads any file whole, however large."""

    KILLS = ("READ-05",)
    REFERENCE_LIMITS: ClassVar[dict[str, int] | None] = {"max_read_bytes": 2**40}


class WindowOffByOne(Mutant):
    """Treats start_line and end_line as 0-based: every window is one line late."""

    KILLS = ("READ-06",)

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        if name == "read_file" and isinstance(arguments, dict):
            shifted = dict(arguments)
            for key in ("start_line", "end_line"):
                if isinstance(shifted.get(key), int):
                    shifted[key] += 1
            arguments = shifted
        return await super().call_tool(name, arguments)


class NoLineNumbers(Mutant):
    """Returns lines without their numbers."""

    KILLS = ("READ-07",)

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        answer = await super().call_tool(name, arguments)
        if name == "read_file" and answer.get("success"):
            lines = [line.split("\t", 1)[-1] for line in answer["data"].split("\n")]
            return {**answer, "data": "\n".join(lines)}
        return answer


class WindowReadsWholeFile(Mutant):
    """Loads the whole file before windowing, so a window of a large file is FILE_TOO_LARGE."""

    KILLS = ("READ-08",)

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        if (
            name == "read_file"
            and self.path_of(arguments) is not None
        ):
            target = self.lexical(arguments["path"])
            if target.is_file() and target.stat().st_size > self.limits.max_read_bytes:
                return failed("FILE_TOO_LARGE", "File too large.")
        return await super().call_tool(name, arguments)


class EmptyFileSilent(Mutant):
    """Returns an empty string for an empty file."""

    KILLS = ("READ-09",)

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        answer = await super().call_tool(name, arguments)
        if name == "read_file" and answer.get("success"):
            target = self.lexical(arguments["path"])
            if target.is_file() and target.stat().st_size == 0:
                return {**answer, "data": self.empty_answer(target)}
        return answer

    def empty_answer(self, target: Path) -> str:
        return ""


class EmptyFileEchoesItsPath(EmptyFileSilent):
    """Answers an empty file with its own path and a colon alone (`/…/root/empty.txt:`), the
    heading it puts above a file's text: words of the call, none of the file's emptiness."""

    def empty_answer(self, target: Path) -> str:
        return f"{target}:\n"


class FifoBlocks(Mutant):
    """Opens whatever the path names, so a FIFO blocks the call forever. A `cmd:` program, since the
    block stalls the whole implementation until the harness kills it."""

    KILLS = ("READ-10",)
    ADAPTER = "cmd"
    CAUGHT_AS = ("fail", "error")

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        if (
            name == "read_file"
            and self.path_of(arguments) is not None
        ):
            target = self.lexical(arguments["path"])
            if target.exists() and not target.is_file() and not target.is_dir():
                with open(target) as stream:
                    return succeeded(stream.read())
        return await super().call_tool(name, arguments)


class WindowPastEndRaises(Mutant):
    """Indexes the line list directly: a window past the end raises IndexError."""

    KILLS = ("READ-11",)

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        if (
            name == "read_file"
            and isinstance(arguments, dict)
            and isinstance(arguments.get("start_line"), int)
        ):
            target = self.lexical(str(arguments.get("path", "")))
            if target.is_file():
                lines = target.read_text(errors="replace").splitlines()
                if arguments["start_line"] > len(lines):
                    raise IndexError("list index out of range")
        return await super().call_tool(name, arguments)


class LastLineDropped(Mutant):
    """Drops the last line of a file with no final newline (`text.split("\\n")[:-1]`)."""

    KILLS = ("READ-01",)

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        answer = await super().call_tool(name, arguments)
        if name == "read_file" and answer.get("success") and "\n" in answer["data"]:
            target = self.lexical(arguments["path"])
            if target.is_file() and not target.read_bytes().endswith(b"\n"):
                return {**answer, "data": answer["data"].rsplit("\n", 1)[0]}
        return answer


class ReversedWindowSwapped(Mutant):
    """Swaps start_line and end_line when they come the wrong way round, and answers the lines."""

    KILLS = ("READ-12",)

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        if is_call(name, arguments, "read_file"):
            start, end = arguments.get("start_line"), arguments.get("end_line")
            if isinstance(start, int) and isinstance(end, int) and end < start:
                arguments = {**arguments, "start_line": end, "end_line": start}
        return await super().call_tool(name, arguments)


class ReadCutShort(Mutant):
    """Answers the first 1,000 characters of every read, whatever the file's size (a read
    capped at a bound of its own far under the profile's), one call at a time as the reference
    serves them: a file read alone is already cut, so no read during writes is torn by a race."""

    KILLS = ("READ-01",)
    CUT = 1_000

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        answer = await super().call_tool(name, arguments)
        if name == "read_file" and answer.get("success") and len(answer["data"]) > self.CUT:
            return {**answer, "data": answer["data"][:self.CUT]}
        return answer


class WindowNeedsBothBounds(Mutant):
    """Refuses a window given by one bound alone ("start_line and end_line must both be provided
    or both omitted"), readably: READ-06's, and no past-the-end window's (READ-11)."""

    KILLS = ("READ-06",)

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        if is_call(name, arguments, "read_file") and (
                ("start_line" in arguments) != ("end_line" in arguments)):
            answer = await super().call_tool(name, arguments)  # its validation first
            if not answer.get("success"):
                return answer
            return failed("INVALID_ARGS",
                          "start_line and end_line must both be provided or both omitted")
        return await super().call_tool(name, arguments)
