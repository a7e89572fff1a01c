"""This implementation's own limits. agentconf.toml declares the same numbers under [limits]."""

MAX_OUTPUT_CHARS = 24_000  # characters of `data` a tool returns, before the gap notes
MAX_READ_BYTES = 120_000  # the largest file read_file returns whole; larger ones need a window
SHELL_TIMEOUT_MS = 7_000  # bash's time limit when the call gives no timeout_ms
SHELL_TIMEOUT_MAX_MS = 120_000  # the largest timeout_ms bash accepts
GREP_FILE_BYTES = 8 * 1024 * 1024  # grep passes over larger files
EDIT_FILE_BYTES = 64 * 1024 * 1024  # edit_file refuses larger files
