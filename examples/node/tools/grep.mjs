// @ts-check
/**
 * grep{pattern, path?, include?}: lines matching a regular expression, as `path:line:text`.
 * Pure JavaScript (no ripgrep needed): the pattern is never parsed as an option (Claude Code's `--`
 * concern cannot arise), no match is a success (Claude Code), binary files are skipped, links are
 * never followed, and the output is bounded while it is gathered.
 */
import { createReadStream, promises as fs } from "node:fs";
import readline from "node:readline";

import { StreamBound } from "../lib/bound.mjs";
import { resolveInRoot, showPath } from "../lib/paths.mjs";
import { ToolFailure, badArgument, ok } from "../lib/results.mjs";
import { decodeText, plural } from "../lib/text.mjs";
import { globMatcher, walk } from "../lib/walk.mjs";

const WHOLE_FILE_MAX = 8 * 1024 * 1024;
const SNIFF_BYTES = 65_536;
const LINE_SHOWN_MAX = 500;
const FILES_MAX = 200_000;

/** @typedef {import("../lib/context.mjs").Context} Context */

export default {
  name: "grep",
  kind: "read",
  // MCP's behaviour hints, each a claim the ANNOTATION clauses judge on the disk.
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  description:
    "Search the files of the workspace for lines matching a regular expression (JavaScript " +
    "syntax; a leading (?i) makes it case-insensitive). Answers one `path:line:text` per " +
    "matching line. Binary files are skipped and links are not followed. Use path to search " +
    "one folder or file, include to search only files whose name matches a glob (*.ts).",
  input_schema: {
    type: "object",
    properties: {
      pattern: { type: "string", minLength: 1, description: "The regular expression to look for." },
      path: { type: "string", description: "Folder or file to search, relative to the root; the root if omitted." },
      include: { type: "string", description: "Only search files matching this glob, such as *.py." },
    },
    required: ["pattern"],
    additionalProperties: false,
  },

  /**
   * @param {{pattern: string, path?: string, include?: string}} args
   * @param {Context} context
   */
  async run(args, context) {
    const regex = compile(args.pattern);
    const target = resolveInRoot(context.root, args.path ?? ".");
    if (!target.exists) {
      throw new ToolFailure(
        "NOT_FOUND",
        `There is no file or folder at ${target.shown} to search. Check the path with list_files.`,
      );
    }
    const stats = await fs.stat(target.real);
    const output = new StreamBound();
    let matches = 0;
    let files = 0;
    /** @param {string} real */
    const search = async (real) => {
      files++;
      matches += await searchFile(real, showPath(context.root, real), regex, output);
    };

    if (stats.isFile()) await search(target.real);
    else if (stats.isDirectory()) {
      const included = args.include === undefined ? () => true : globMatcher(args.include);
      for await (const entry of walk(target.real, FILES_MAX)) {
        if (entry.kind === "file" && included(entry.relative)) await search(entry.real);
      }
    } else {
      throw new ToolFailure("IO_ERROR", `${target.shown} is a special file and cannot be searched. Search a folder or a regular file.`);
    }

    if (matches === 0) {
      return ok(`No matches for ${JSON.stringify(args.pattern)} in ${target.shown} (${plural(files, "file")} searched).`);
    }
    return ok(output.text().replace(/\n$/, ""));
  },
};

/** @param {string} pattern */
function compile(pattern) {
  let source = pattern;
  let flags = "";
  if (source.startsWith("(?i)")) {
    source = source.slice(4);
    flags = "i";
  }
  try {
    return new RegExp(source, `${flags}u`);
  } catch {
    try {
      return new RegExp(source, flags);
    } catch (error) {
      const reason = /** @type {Error} */ (error).message.replace(/^Invalid regular expression: /, "");
      throw badArgument(
        "pattern",
        "a valid regular expression",
        `the string ${JSON.stringify(pattern.slice(0, 40))}`,
        `pattern is not a valid regular expression (${reason.slice(0, 200)}). Escape special characters such as ( [ { with a backslash, or simplify the pattern.`,
      );
    }
  }
}

/**
 * @param {string} real
 * @param {string} shown
 * @param {RegExp} regex
 * @param {StreamBound} output
 * @returns {Promise<number>} the number of matching lines
 */
async function searchFile(real, shown, regex, output) {
  let found = 0;
  /**
   * @param {string} text
   * @param {number} number
   */
  const consider = (text, number) => {
    const line = text.endsWith("\r") ? text.slice(0, -1) : text;
    if (!regex.test(line)) return;
    found++;
    const cut = line.length > LINE_SHOWN_MAX ? `${line.slice(0, LINE_SHOWN_MAX)}... (line cut)` : line;
    output.push(Buffer.from(`${shown}:${number}:${cut}\n`, "utf8"));
  };

  let size;
  try {
    size = (await fs.stat(real)).size;
  } catch {
    return 0; // vanished while searching
  }
  if (size <= WHOLE_FILE_MAX) {
    const text = decodeText(await fs.readFile(real));
    if (text === null) return 0; // binary: skipped
    const lines = text.split("\n");
    if (lines[lines.length - 1] === "") lines.pop();
    lines.forEach((line, index) => consider(line, index + 1));
    return found;
  }
  // Large files stream; the first bytes decide whether the file is text.
  const handle = await fs.open(real, "r");
  try {
    const sniff = Buffer.alloc(SNIFF_BYTES);
    const { bytesRead } = await handle.read(sniff, 0, SNIFF_BYTES, 0);
    const head = sniff.subarray(0, bytesRead);
    if (head.includes(0)) return 0;
    try {
      new TextDecoder("utf-8", { fatal: true }).decode(head, { stream: true });
    } catch {
      return 0;
    }
  } finally {
    await handle.close();
  }
  const lines = readline.createInterface({ input: createReadStream(real, { encoding: "utf8" }), crlfDelay: Infinity });
  let number = 0;
  for await (const line of lines) consider(line, ++number);
  return found;
}
