"""Replacing a file whole: a temporary file beside it, then a rename over it.

A reader sees the old file or the new one, never a mix, and the file keeps its permission bits.
Everything happens relative to an open descriptor of the folder, so no link is followed.
"""

import contextlib
import os
import secrets
import stat

WRITE_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC


def replace_file(folder: int, name: str, data: bytes, keep_mode: int | None) -> os.stat_result:
    """Writes `data` as `name` in `folder`; `keep_mode` is the replaced file's mode, if any."""
    temporary = f".plain-{secrets.token_hex(6)}.part"
    fd = os.open(temporary, WRITE_FLAGS, 0o666, dir_fd=folder)
    try:
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
            if keep_mode is not None:
                os.fchmod(fd, keep_mode)
        finally:
            os.close(fd)
        os.rename(temporary, name, src_dir_fd=folder, dst_dir_fd=folder)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temporary, dir_fd=folder)
        raise
    return os.stat(name, dir_fd=folder, follow_symlinks=False)


def mode_of(info: os.stat_result) -> int:
    return stat.S_IMODE(info.st_mode)
