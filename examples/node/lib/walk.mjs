// @ts-check
/**
 * Walking a folder for list_files and grep. Symbolic links are never followed (@clarvis/agent-tools: a walk
 * that follows links walks the whole disk); they are listed as names and never searched.
 * Entries come sorted by name, so the same tree always gives the same answer.
 */
import { promises as fs } from "node:fs";
import path from "node:path";

/**
 * @typedef {{real: string, relative: string, kind: "file" | "link" | "other"}} Entry
 *   relative: to the folder the walk started in
 */

/**
 * Every non-folder entry below `start`, depth first, in name order, at most `limit` of them.
 * @param {string} start real path of a folder
 * @param {number} limit
 * @returns {AsyncGenerator<Entry>}
 */
export async function* walk(start, limit) {
  let yielded = 0;
  /** @type {string[]} */
  const folders = [""];
  while (folders.length > 0) {
    const relativeFolder = /** @type {string} */ (folders.pop());
    let entries;
    try {
      entries = await fs.readdir(path.join(start, relativeFolder), { withFileTypes: true });
    } catch {
      continue; // unreadable or vanished folders are skipped, not fatal
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    /** @type {string[]} */
    const below = [];
    for (const entry of entries) {
      const relative = relativeFolder === "" ? entry.name : `${relativeFolder}/${entry.name}`;
      if (entry.isDirectory()) {
        below.push(relative);
        continue;
      }
      const kind = entry.isFile() ? "file" : entry.isSymbolicLink() ? "link" : "other";
      yield { real: path.join(start, relative), relative, kind };
      if (++yielded >= limit) return;
    }
    // Depth first, first name first: push in reverse so the smallest name pops next.
    for (const folder of below.reverse()) folders.push(folder);
  }
}

/**
 * A glob as a regular expression: `**` crosses folders, `*` and `?` do not, `[...]` is a class,
 * `{a,b}` an alternative. A glob without `/` is matched against the file's name alone.
 * @param {string} glob
 * @returns {(relative: string) => boolean}
 */
export function globMatcher(glob) {
  const anchored = glob.includes("/");
  const source = anchored ? glob.replace(/^\.?\//, "") : glob;
  let pattern = "";
  let braces = 0;
  for (let i = 0; i < source.length; i++) {
    const char = source[i];
    if (char === "*" && source[i + 1] === "*") {
      const slashAfter = source[i + 2] === "/";
      pattern += slashAfter ? "(?:.*/)?" : ".*";
      i += slashAfter ? 2 : 1;
    } else if (char === "*") pattern += "[^/]*";
    else if (char === "?") pattern += "[^/]";
    else if (char === "[") {
      const close = source.indexOf("]", i + 2);
      if (close === -1) pattern += "\\[";
      else {
        const body = source.slice(i + 1, close).replace(/^!/, "^").replace(/\\/g, "\\\\");
        pattern += `[${body}]`;
        i = close;
      }
    } else if (char === "{") {
      braces++;
      pattern += "(?:";
    } else if (char === "}" && braces > 0) {
      braces--;
      pattern += ")";
    } else if (char === "," && braces > 0) pattern += "|";
    else pattern += char.replace(/[.+^$()|\\\]{}]/g, "\\$&");
  }
  pattern += ")".repeat(braces);
  let compiled;
  try {
    compiled = new RegExp(`^${pattern}$`, "u");
  } catch {
    const literal = source;
    return (relative) => (anchored ? relative : path.posix.basename(relative)) === literal;
  }
  return (relative) => compiled.test(anchored ? relative : path.posix.basename(relative));
}
