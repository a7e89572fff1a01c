// @ts-check
/**
 * read_file{path, start_line?, end_line?}: numbered lines of a text file, or a window of them.
 * Whole reads stop at 262,144 bytes (dskcode, FILE_TOO_LARGE); windows stream, so their cost
 * is the window, not the file. A FIFO or device answers at once instead of blocking (opened
 * non-blocking, judged by fstat).
 */
import { constants, promises as fs } from "node:fs";
import { createHash } from "node:crypto";

import { resolveInRoot } from "../lib/paths.mjs";
import { ToolFailure, badArgument, ok } from "../lib/results.mjs";
import { fingerprint } from "../lib/session.mjs";
import { decodeText, plural, splitLines } from "../lib/text.mjs";

export const MAX_READ_BYTES = 262_144;
const CHUNK = 65_536;

/** @typedef {import("../lib/context.mjs").Context} Context */

export default {
  name: "read_file",
  kind: "read",
  // MCP's behaviour hints, each a claim the ANNOTATION clauses judge on the disk.
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  description:
    "Read a text file inside the workspace. Every line comes back prefixed with its 1-based line " +
    "number and a tab (the prefix is not part of the file). Files over 262144 bytes must be read " +
    "in windows with start_line and end_line. Reading a file is required before edit_file or an " +
    "overwriting write_file may change it.",
  input_schema: {
    type: "object",
    properties: {
      path: { type: "string", description: "The file, relative to the workspace root (a leading @ is ignored)." },
      start_line: { type: "integer", minimum: 1, description: "First line to return, counting from 1." },
      end_line: { type: "integer", minimum: 1, description: "Last line to return, inclusive." },
    },
    required: ["path"],
    additionalProperties: false,
  },

  /**
   * @param {{path: string, start_line?: number, end_line?: number}} args
   * @param {Context} context
   */
  async run(args, context) {
    const target = resolveInRoot(context.root, args.path);
    if (!target.exists) {
      throw new ToolFailure(
        "NOT_FOUND",
        `There is no file at ${target.shown}. Check the name with list_files, then read a path it shows.`,
      );
    }
    if (args.start_line !== undefined && args.end_line !== undefined && args.end_line < args.start_line) {
      throw badArgument(
        "end_line",
        `integer >= start_line (${args.start_line})`,
        `the integer ${args.end_line}`,
        `end_line (${args.end_line}) comes before start_line (${args.start_line}); ask for a window whose end is at or after its start.`,
      );
    }
    const handle = await fs.open(target.real, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
    try {
      const stats = await handle.stat();
      if (stats.isDirectory()) {
        throw new ToolFailure(
          "IS_DIRECTORY",
          `${target.shown} is a folder. Use list_files to see its files, then read one of them.`,
        );
      }
      if (!stats.isFile()) {
        throw new ToolFailure(
          "IO_ERROR",
          `${target.shown} is not a regular file (it is a pipe, socket or device), so it has no text to read. Read a regular file instead.`,
        );
      }
      const windowed = args.start_line !== undefined || args.end_line !== undefined;
      if (!windowed) return await readWhole(handle, stats.size, target, context);
      return await readWindow(handle, args.start_line ?? 1, args.end_line ?? Number.MAX_SAFE_INTEGER, target, context);
    } finally {
      await handle.close();
    }
  },
};

/**
 * @param {import("node:fs/promises").FileHandle} handle
 * @param {number} size
 * @param {import("../lib/paths.mjs").Resolved} target
 * @param {Context} context
 */
async function readWhole(handle, size, target, context) {
  if (size > MAX_READ_BYTES) {
    throw new ToolFailure(
      "FILE_TOO_LARGE",
      `${target.shown} holds ${size} bytes, more than the ${MAX_READ_BYTES} that read_file returns at once. ` +
        "Ask for a window with start_line and end_line (say lines 1 to 200), or find the lines you need with grep.",
    );
  }
  const bytes = await handle.readFile();
  context.ledger.remember(target.real, fingerprint(bytes));
  const text = decodeText(bytes);
  if (text === null) throw binary(target.shown);
  const lines = splitLines(text);
  if (lines.length === 0 || (lines.length === 1 && lines[0] === "\ufeff")) {
    return ok(`${target.shown} is empty: it has no lines (${plural(bytes.length, "byte")}).`);
  }
  return ok(numbered(lines, 1));
}

/**
 * Streams the whole file once: it must be hashed for the stale-read guard and counted for the
 * window's note, but only the window's lines are kept.
 * @param {import("node:fs/promises").FileHandle} handle
 * @param {number} first
 * @param {number} last
 * @param {import("../lib/paths.mjs").Resolved} target
 * @param {Context} context
 */
async function readWindow(handle, first, last, target, context) {
  const hash = createHash("sha256");
  const buffer = Buffer.alloc(CHUNK);
  /** @type {Buffer[]} */
  const picked = [];
  /** @type {Buffer[]} */
  let current = [];
  let keptBytes = 0;
  let cutBefore = 0; // first line no longer kept because the window grew past MAX_READ_BYTES
  let line = 1;
  let sawNul = false;
  let lastByte = -1;
  const keeping = () => line >= first && line <= last && cutBefore === 0;

  for (;;) {
    const { bytesRead } = await handle.read(buffer, 0, CHUNK, null);
    if (bytesRead === 0) break;
    const chunk = buffer.subarray(0, bytesRead);
    hash.update(chunk);
    if (chunk.includes(0)) sawNul = true;
    lastByte = chunk[bytesRead - 1];
    let position = 0;
    while (position < chunk.length) {
      const newline = chunk.indexOf(10, position);
      const end = newline === -1 ? chunk.length : newline;
      if (keeping()) {
        current.push(Buffer.from(chunk.subarray(position, end)));
        keptBytes += end - position;
        if (keptBytes > MAX_READ_BYTES) {
          cutBefore = line;
          current = [];
        }
      }
      if (newline === -1) break;
      if (keeping()) picked.push(Buffer.concat(current));
      current = [];
      line++;
      position = newline + 1;
    }
  }
  if (current.length > 0 && keeping()) picked.push(Buffer.concat(current));
  const total = lastByte === -1 ? 0 : lastByte === 10 ? line - 1 : line;
  context.ledger.remember(target.real, hash.digest("hex"));

  if (sawNul) throw binary(target.shown);
  if (total === 0) return ok(`${target.shown} is empty: it has no lines, so there is no window to show.`);
  if (first > total) {
    throw badArgument(
      "start_line",
      `integer <= ${total}`,
      `the integer ${first}`,
      `start_line ${first} is past the end: ${target.shown} has ${plural(total, "line")}. Ask for a window that starts between 1 and ${total}.`,
    );
  }
  const text = decodeText(Buffer.concat(picked.flatMap((bytes) => [bytes, Buffer.from("\n")])));
  if (text === null) throw binary(target.shown);
  const lines = splitLines(text);
  const lastShown = first + lines.length - 1;
  let data = numbered(lines, first);
  if (cutBefore > 0) {
    data += `\n(window stopped at line ${lastShown}: it passed ${MAX_READ_BYTES} bytes. Continue with start_line=${lastShown + 1}.)`;
  } else if (lastShown < total) {
    data += `\n(lines ${first}-${lastShown} of ${total}. Continue with start_line=${lastShown + 1}.)`;
  }
  return ok(data);
}

/**
 * @param {string[]} lines
 * @param {number} first the number of lines[0]
 */
function numbered(lines, first) {
  return lines
    .map((text, index) => {
      const shown = first === 1 && index === 0 ? text.replace(/^\ufeff/, "") : text;
      return `${String(first + index).padStart(6)}\t${shown}`;
    })
    .join("\n");
}

/** @param {string} shown */
function binary(shown) {
  return new ToolFailure(
    "BINARY_FILE",
    `${shown} looks binary (it has NUL bytes or is not valid UTF-8), so its content is not shown. If it matters, inspect it with bash (for example with file or xxd).`,
  );
}
