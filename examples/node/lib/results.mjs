// @ts-check
/**
 * The result envelope and the failures tools raise (contract: agentconf/contract/envelope.py).
 *
 * Success and failure share one shape (dskcode, ToolResult): `data` is for the model, `summary`
 * for people, `diff` for tools, `error` a stable code for programs.
 */

/**
 * @typedef {{path: string, expected: string, received: string, message: string}} Issue
 * @typedef {{source: string, reason: string, hint?: string}} Denial
 * @typedef {{
 *   success: boolean, data: string, error?: string, summary?: string, diff?: string,
 *   issues?: Issue[], denial?: Denial, exit_code?: number
 * }} Envelope
 */

/**
 * @param {string} data
 * @param {{summary?: string, diff?: string, exit_code?: number}} [extra]
 * @returns {Envelope}
 */
export function ok(data, extra = {}) {
  return { success: true, data, ...dropUndefined(extra) };
}

/**
 * @param {string} code
 * @param {string} data
 * @param {{issues?: Issue[], denial?: Denial, exit_code?: number}} [extra]
 * @returns {Envelope}
 */
export function fail(code, data, extra = {}) {
  return { success: false, data, error: code, ...dropUndefined(extra) };
}

/** A failure a tool raises on purpose; the dispatcher turns it into an envelope. */
export class ToolFailure extends Error {
  /**
   * @param {string} code one of the contract's error codes
   * @param {string} message the words for the model, ending with what to do next
   * @param {{issues?: Issue[], denial?: Denial, exit_code?: number}} [extra]
   */
  constructor(code, message, extra = {}) {
    super(message);
    this.code = code;
    this.extra = extra;
  }

  /** @returns {Envelope} */
  toEnvelope() {
    return fail(this.code, this.message, this.extra);
  }
}

/**
 * An INVALID_ARGS failure about one field, for checks that only make sense at run time.
 * @param {string} field
 * @param {string} expected
 * @param {string} received
 * @param {string} message
 */
export function badArgument(field, expected, received, message) {
  return new ToolFailure("INVALID_ARGS", message, {
    issues: [{ path: `$.${field}`, expected, received, message }],
  });
}

/**
 * Classifies an operating-system error so that no errno ever reaches the model raw.
 * @param {any} error a Node system error (has `.code`)
 * @param {string} shown the path as the model should see it
 * @returns {ToolFailure | null} null when the error is not a system error we know
 */
export function fromSystemError(error, shown) {
  switch (error?.code) {
    case "ENOENT":
      return new ToolFailure(
        "NOT_FOUND",
        `Nothing exists at ${shown}. Look around with list_files, then use a path it shows.`,
      );
    case "EISDIR":
      return new ToolFailure(
        "IS_DIRECTORY",
        `${shown} is a folder, not a file. Use list_files to see what it holds.`,
      );
    case "ENOTDIR":
      return new ToolFailure(
        "NOT_A_DIRECTORY",
        `A part of ${shown} is a file where a folder was needed. Fix the parent part of the path.`,
      );
    case "EACCES":
    case "EPERM":
    case "EROFS":
      return new ToolFailure(
        "PERMISSION_DENIED",
        `The operating system refused access to ${shown}. Do not retry; ask the user to change its permissions.`,
        { denial: { source: "filesystem", reason: String(error.code) } },
      );
    case "ELOOP":
      return new ToolFailure(
        "IO_ERROR",
        `${shown} goes through a loop of symbolic links and leads nowhere. Use a path without the looping link.`,
      );
    case "ENAMETOOLONG":
      return new ToolFailure("IO_ERROR", `The path ${shown} is too long for the file system. Use a shorter path.`);
    case "ENOSPC":
    case "EDQUOT":
      return new ToolFailure("IO_ERROR", `The disk is full, so ${shown} could not be written. Free space first.`);
    default:
      if (typeof error?.code === "string" && typeof error?.syscall === "string") {
        return new ToolFailure(
          "IO_ERROR",
          `The operating system failed on ${shown} (${error.code}). Check the path and try once more.`,
        );
      }
      return null;
  }
}

/**
 * @template {Record<string, unknown>} T
 * @param {T} record
 * @returns {Partial<T>}
 */
function dropUndefined(record) {
  /** @type {Partial<T>} */
  const kept = {};
  for (const [key, value] of Object.entries(record)) {
    if (value !== undefined && value !== null) kept[/** @type {keyof T} */ (key)] = /** @type {any} */ (value);
  }
  return kept;
}
