"""Binary detection: a NUL byte, or bytes that are not UTF-8, in the first 8 KiB (dskcode)."""

import codecs

SNIFF_BYTES = 8192


def looks_binary(head: bytes, *, complete: bool = False) -> bool:
    """True when `head` holds a NUL byte or invalid UTF-8.

    `head` is usually the first SNIFF_BYTES of a longer file, and the cut may fall inside a
    multi-byte character: unless `complete` says `head` is the whole file, an unfinished sequence
    at its very end is not held against it.
    """
    if b"\x00" in head:
        return True
    try:
        codecs.getincrementaldecoder("utf-8")().decode(head, final=complete)
    except UnicodeDecodeError:
        return True
    return False
