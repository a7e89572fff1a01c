"""Opening the file a path names, safely: regular files only, never blocking, never a final link.

Used by every tool that reads a file's bytes (read_file, edit_file, write_file's overwrite
check). `O_NONBLOCK` makes opening a FIFO return at once, and fstat on the open descriptor then
refuses it; `O_NOFOLLOW` refuses a final component that became a link after confinement looked.
"""

import os
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO

from ..results import ToolError
from .paths import os_error


def check_regular(info: os.stat_result, shown: str) -> None:
    """Raises IS_DIRECTORY or IO_ERROR unless `info` describes a regular file."""
    if stat.S_ISDIR(info.st_mode):
        raise ToolError(
            "IS_DIRECTORY",
            f"`{shown}` is a folder, not a file. Use list_files to see what is in it, "
            "or name a file inside it.",
        )
    if not stat.S_ISREG(info.st_mode):
        raise ToolError(
            "IO_ERROR",
            f"`{shown}` is not a regular file (it is a FIFO, socket or device), so it cannot be "
            "used as text. Name a regular file instead.",
        )


@contextmanager
def open_regular(path: Path, shown: str) -> Iterator[tuple[BinaryIO, os.stat_result]]:
    """The open file (binary, blocking reads) and its fstat, or a ToolError."""
    flags = os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW | os.O_CLOEXEC
    try:
        descriptor = os.open(path, flags)
    except OSError as error:
        raise os_error(error, shown) from error
    try:
        info = os.fstat(descriptor)
        check_regular(info, shown)
        os.set_blocking(descriptor, True)
    except BaseException:
        os.close(descriptor)
        raise
    with os.fdopen(descriptor, "rb") as file:
        yield file, info


def read_regular(path: Path, shown: str, max_bytes: int) -> tuple[bytes, os.stat_result]:
    """The whole content of a regular file no larger than `max_bytes`, and its fstat."""
    with open_regular(path, shown) as (file, info):
        if info.st_size > max_bytes:
            raise ToolError(
                "FILE_TOO_LARGE",
                f"`{shown}` is {human_size(info.st_size)}, more than the {human_size(max_bytes)} "
                "this tool handles in one call.",
            )
        return file.read(), info


def human_size(count: int) -> str:
    if count < 1024:
        return f"{count} bytes"
    size = float(count)
    for unit in ("KB", "MB", "GB"):
        size /= 1024
        if size < 1024 or unit == "GB":
            break
    return f"{size:.1f} {unit}"
