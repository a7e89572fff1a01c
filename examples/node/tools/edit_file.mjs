// @ts-check
/**
 * edit_file{path, old_text, new_text, replace_all?}: exact string replacement (dskcode).
 * old_text must occur once (or replace_all is set); "not found" and "found several times" are
 * different failures because the model recovers from them differently. Line endings, a BOM and
 * the final newline outside the replaced span are kept byte for byte; LF old_text matches a CRLF
 * file and straight quotes match curly ones (Claude Code). new_text is inserted literally.
 */
import { promises as fs } from "node:fs";

import { atomicWrite } from "../lib/atomic.mjs";
import { unifiedDiff } from "../lib/diff.mjs";
import { findSpans, lineAt, splice } from "../lib/match.mjs";
import { resolveInRoot } from "../lib/paths.mjs";
import { ToolFailure, ok } from "../lib/results.mjs";
import { fingerprint } from "../lib/session.mjs";
import { decodeText, plural } from "../lib/text.mjs";

const LINES_NAMED_MAX = 10;

/** @typedef {import("../lib/context.mjs").Context} Context */

export default {
  name: "edit_file",
  kind: "edit",
  // MCP's behaviour hints, each a claim the ANNOTATION clauses judge on the disk.
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  description:
    "Replace old_text with new_text in an existing file. old_text must match the file exactly " +
    "(indentation included) and occur exactly once, unless replace_all is true. Read the file " +
    "with read_file first in this session. Copy old_text from the file without the line-number " +
    "prefixes read_file adds.",
  input_schema: {
    type: "object",
    properties: {
      path: { type: "string", description: "The file to change, relative to the workspace root." },
      old_text: { type: "string", minLength: 1, description: "The exact text to replace." },
      new_text: { type: "string", description: "The text to put in its place." },
      replace_all: { type: "boolean", description: "Replace every occurrence instead of requiring one." },
    },
    required: ["path", "old_text", "new_text"],
    additionalProperties: false,
  },

  /**
   * @param {{path: string, old_text: string, new_text: string, replace_all?: boolean}} args
   * @param {Context} context
   */
  async run(args, context) {
    const target = resolveInRoot(context.root, args.path);
    if (!target.exists) {
      throw new ToolFailure(
        "NOT_FOUND",
        `There is no file at ${target.shown}; edit_file only changes existing files. Check the name with list_files, or create the file with write_file.`,
      );
    }
    return context.locks.run(target.real, async () => {
      const stats = await fs.lstat(target.real);
      if (stats.isDirectory()) {
        throw new ToolFailure(
          "IS_DIRECTORY",
          `${target.shown} is a folder, not a file. Name a file inside it (list_files shows them).`,
        );
      }
      if (!stats.isFile()) {
        throw new ToolFailure(
          "IO_ERROR",
          `${target.shown} is a special file (pipe, socket or device) and cannot be edited. Edit a regular file instead.`,
        );
      }
      const bytes = await fs.readFile(target.real);
      context.ledger.require(target.real, target.shown, bytes, "edited");
      const text = decodeText(bytes);
      if (text === null) {
        throw new ToolFailure(
          "BINARY_FILE",
          `${target.shown} looks binary (NUL bytes or invalid UTF-8); edit_file only changes text files. Use write_file to replace it whole if you must.`,
        );
      }

      const found = findSpans(text, args.old_text);
      if (found.spans.length === 0) {
        throw new ToolFailure(
          "TEXT_NOT_FOUND",
          `old_text does not occur in ${target.shown}. Read the file again and copy the text exactly as it stands, spaces and line breaks included.`,
        );
      }
      if (found.spans.length > 1 && !args.replace_all) {
        const lines = found.spans.slice(0, LINES_NAMED_MAX).map((span) => lineAt(text, span.start));
        const more = found.spans.length > LINES_NAMED_MAX ? ", ..." : "";
        throw new ToolFailure(
          "TEXT_MULTIPLE_MATCHES",
          `old_text occurs ${found.spans.length} times in ${target.shown} (lines ${lines.join(", ")}${more}), so the place to change is ambiguous. ` +
            "Include neighbouring lines in old_text until it is unique, or set replace_all to true to change every occurrence.",
        );
      }

      const firstLine = lineAt(text, found.spans[0].start);
      const how = found.normalised ? " (matched after reading CRLF as LF and curly quotes as straight)" : "";
      const where = `${plural(found.spans.length, "occurrence")} starting at line ${firstLine}${how}`;
      const updated = args.old_text === args.new_text ? text : splice(text, found.spans, args.new_text);
      if (updated === text) {
        return ok(`${target.shown} is unchanged: new_text is the same as the text it would replace (${where}).`, {
          summary: `no change to ${target.shown}`,
        });
      }

      const newBytes = Buffer.from(updated, "utf8");
      await atomicWrite(target.real, newBytes, stats.mode);
      context.ledger.remember(target.real, fingerprint(newBytes));
      const { diff, added, removed } = unifiedDiff(text, updated, target.shown);
      return ok(`Edited ${target.shown}: replaced ${where}; ${plural(added, "line")} added, ${plural(removed, "line")} removed.`, {
        summary: `edited ${target.shown} (+${added} -${removed})`,
        diff,
      });
    });
  },
};
