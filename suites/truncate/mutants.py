"""TRUNCATE mutants: the reference runs unbounded and the mutant bounds output its own wrong way."""

from typing import Any, ClassVar

from agentconf.selfcheck.mutant_base import Mutant

UNBOUNDED = {"max_output_chars": 10**9}


class _Bounds(Mutant):
    REFERENCE_LIMITS: ClassVar[dict[str, int] | None] = UNBOUNDED
    TOOLS: ClassVar[tuple[str, ...]] = ("bash", "grep", "list_files", "read_file")

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        answer = await super().call_tool(name, arguments)
        data = answer.get("data")
        limit = self.limits.max_output_chars
        if name in self.TOOLS and isinstance(data, str) and len(data) > limit:
            return {**answer, "data": self.bound(data, limit)}
        return answer

    def bound(self, data: str, limit: int) -> str:
        return data


class HeadOnlyTruncation(_Bounds):
    """Keeps the first max_output_chars and drops the tail, where errors and summaries are."""

    KILLS = ("TRUNCATE-02", "TRUNCATE-05", "SHELL-08")

    def bound(self, data: str, limit: int) -> str:
        return data[:limit] + f"\n[... {len(data) - limit} characters truncated]"


class ByteSlicingThroughUtf8(_Bounds):
    """Bounds by slicing the UTF-8 bytes and decoding with errors='replace': a cut through a
    multi-byte character becomes U+FFFD."""

    KILLS = ("TRUNCATE-04", "TRUNCATE-05")

    def bound(self, data: str, limit: int) -> str:
        raw = data.encode("utf-8")
        half = limit // 2
        cut = len(raw) - 2 * half
        head = raw[:half].decode("utf-8", "replace")
        tail = raw[-half:].decode("utf-8", "replace")
        return f"{head}\n[... {cut} bytes truncated ...]\n{tail}"


class Utf16Slicing(_Bounds):
    """Bounds by slicing UTF-16 code units, as JavaScript's `slice` does: a cut through a
    character outside the BMP (an emoji) leaves half of its surrogate pair."""

    KILLS = ("TRUNCATE-04",)

    def bound(self, data: str, limit: int) -> str:
        units = data.encode("utf-16-le", "surrogatepass")
        half = limit // 2
        head = units[:2 * half].decode("utf-16-le", "surrogatepass")
        tail = units[-2 * half - 2:].decode("utf-16-le", "surrogatepass")
        cut = len(units) // 2 - 2 * half - 1  # code units, not bytes
        return f"{head}\n[... {cut} characters truncated ...]\n{tail}"


class NoTruncationMarker(_Bounds):
    """Keeps head and tail but says nothing about what was cut between them."""

    KILLS = ("TRUNCATE-03",)

    def bound(self, data: str, limit: int) -> str:
        half = limit // 2
        return data[:half] + "\n" + data[-half:]


class NoTruncation(_Bounds):
    """Returns output whole, however long."""

    KILLS = ("TRUNCATE-01", "TRUNCATE-05", "SHELL-08", "SHELL-12")


class TruncatesEarly(_Bounds):
    """Cuts at a fixed fraction of the limit, so output that fits is truncated too."""

    KILLS = ("TRUNCATE-06",)

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        answer = await Mutant.call_tool(self, name, arguments)
        data = answer.get("data")
        keep = self.limits.max_output_chars // 4
        if name in self.TOOLS and isinstance(data, str) and len(data) > 2 * keep:
            cut = len(data) - 2 * keep
            return {
                **answer,
                "data": f"{data[:keep]}\n[... {cut} characters truncated ...]\n{data[-keep:]}",
            }
        return answer
