// @ts-check
/**
 * list_files{path?, pattern?}: the files below a folder, one per line, named relative to the
 * workspace root, in a stable order. Links are listed by name and never entered (@clarvis/agent-tools).
 */
import { promises as fs } from "node:fs";

import { resolveInRoot, showPath } from "../lib/paths.mjs";
import { ToolFailure, ok } from "../lib/results.mjs";
import { globMatcher, walk } from "../lib/walk.mjs";

const ENTRIES_MAX = 100_000;

/** @typedef {import("../lib/context.mjs").Context} Context */

export default {
  name: "list_files",
  kind: "read",
  // MCP's behaviour hints, each a claim the ANNOTATION clauses judge on the disk.
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  description:
    "List the files below a folder of the workspace (all depths), one path per line, relative " +
    "to the workspace root. Symbolic links are listed but not followed. Use pattern to keep " +
    "only names matching a glob such as *.py or src/**/*.ts.",
  input_schema: {
    type: "object",
    properties: {
      path: { type: "string", description: "The folder to list, relative to the workspace root; the root if omitted." },
      pattern: {
        type: "string",
        description: "A glob; without a / it is matched against file names, with one against paths below the folder.",
      },
    },
    required: [],
    additionalProperties: false,
  },

  /**
   * @param {{path?: string, pattern?: string}} args
   * @param {Context} context
   */
  async run(args, context) {
    const target = resolveInRoot(context.root, args.path ?? ".");
    if (!target.exists) {
      throw new ToolFailure(
        "NOT_FOUND",
        `There is no folder at ${target.shown}. List the workspace root (path ".") to see what exists.`,
      );
    }
    const matches = args.pattern === undefined ? () => true : globMatcher(args.pattern);
    const filter = args.pattern === undefined ? "" : ` matching ${JSON.stringify(args.pattern)}`;
    const stats = await fs.stat(target.real);
    if (stats.isFile()) {
      const name = target.shown;
      return ok(matches(name.split("/").pop() ?? name) ? name : `${name} is a file and does not match the pattern.`);
    }
    if (!stats.isDirectory()) {
      throw new ToolFailure(
        "NOT_A_DIRECTORY",
        `${target.shown} is neither a folder nor a regular file. Name a folder to list.`,
      );
    }

    /** @type {string[]} */
    const names = [];
    let seen = 0;
    for await (const entry of walk(target.real, ENTRIES_MAX)) {
      seen++;
      if (matches(entry.relative)) names.push(showPath(context.root, entry.real));
    }
    if (names.length === 0) return ok(`No files in ${target.shown}${filter}.`);
    const stopped =
      seen >= ENTRIES_MAX
        ? `\n(listing stopped after ${ENTRIES_MAX} entries; list a smaller folder or give a pattern.)`
        : "";
    return ok(names.join("\n") + stopped);
  },
};
