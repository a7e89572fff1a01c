// @ts-check
/**
 * write_file{path, content}: store exactly these bytes (no line-ending conversion: the model
 * decides the bytes), creating missing parent folders (Claude Code), atomically and keeping the
 * old file's permission bits (@clarvis/agent-tools). Overwriting an existing file needs a prior read in this
 * session and fails if the file changed since (Claude Code).
 */
import { promises as fs } from "node:fs";
import path from "node:path";

import { atomicWrite } from "../lib/atomic.mjs";
import { unifiedDiff } from "../lib/diff.mjs";
import { resolveInRoot } from "../lib/paths.mjs";
import { ToolFailure, badArgument, ok } from "../lib/results.mjs";
import { fingerprint } from "../lib/session.mjs";
import { decodeText, plural, splitLines } from "../lib/text.mjs";

const DIFF_MAX_BYTES = 262_144;

/** @typedef {import("../lib/context.mjs").Context} Context */

export default {
  name: "write_file",
  kind: "edit",
  // MCP's behaviour hints, each a claim the ANNOTATION clauses judge on the disk.
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  description:
    "Create a file, or replace a whole file, with exactly the given content. Missing parent " +
    "folders are created. To replace an existing file, read it with read_file first in this " +
    "session; for a small change to an existing file prefer edit_file.",
  input_schema: {
    type: "object",
    properties: {
      path: { type: "string", description: "The file to write, relative to the workspace root." },
      content: { type: "string", description: "The complete new text of the file." },
    },
    required: ["path", "content"],
    additionalProperties: false,
  },

  /**
   * @param {{path: string, content: string}} args
   * @param {Context} context
   */
  async run(args, context) {
    const target = resolveInRoot(context.root, args.path);
    if (!target.exists && /[/]\.?$/.test(args.path)) {
      throw badArgument(
        "path",
        "a file name",
        "a path ending in /",
        `path ends with "/", so it names a folder; write_file needs a file name at the end of the path.`,
      );
    }
    return context.locks.run(target.real, async () => {
      const existing = await statOrNull(target.real);
      if (existing?.isDirectory()) {
        throw new ToolFailure(
          "IS_DIRECTORY",
          `${target.shown} is a folder, so it cannot be written as a file. Pick a file name inside it.`,
        );
      }
      if (existing && !existing.isFile()) {
        throw new ToolFailure(
          "IO_ERROR",
          `${target.shown} is a special file (pipe, socket or device) and is left alone. Write to a regular file instead.`,
        );
      }
      const before = existing ? await fs.readFile(target.real) : null;
      if (before) context.ledger.require(target.real, target.shown, before, "overwritten");
      if (!existing) await fs.mkdir(path.dirname(target.real), { recursive: true });

      const bytes = Buffer.from(args.content, "utf8");
      await atomicWrite(target.real, bytes, existing?.mode);
      context.ledger.remember(target.real, fingerprint(bytes));

      const lineCount = splitLines(args.content).length;
      const verb = existing ? "Replaced" : "Created";
      const change = describeChange(before, bytes, target.shown);
      return ok(`${verb} ${target.shown} with ${plural(bytes.length, "byte")} in ${plural(lineCount, "line")}.`, {
        summary: `${verb.toLowerCase()} ${target.shown}${change.counts}`,
        diff: change.diff,
      });
    });
  },
};

/** @param {string} real */
async function statOrNull(real) {
  try {
    return await fs.lstat(real);
  } catch (error) {
    if (/** @type {any} */ (error).code === "ENOENT") return null;
    throw error;
  }
}

/**
 * @param {Buffer | null} before
 * @param {Buffer} after
 * @param {string} shown
 */
function describeChange(before, after, shown) {
  if ((before?.length ?? 0) + after.length > DIFF_MAX_BYTES) return { diff: undefined, counts: "" };
  const oldText = before ? decodeText(before) : "";
  const newText = decodeText(after);
  if (oldText === null || newText === null) return { diff: undefined, counts: "" };
  const { diff, added, removed } = unifiedDiff(oldText, newText, shown);
  return { diff: diff || undefined, counts: ` (+${added} -${removed})` };
}
