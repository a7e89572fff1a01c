// @ts-check
/**
 * One resolver for every tool (dskcode, sandbox.ts: "no one can bypass it"): strip the `@`
 * mention marker, never expand `~`, follow symbolic links ourselves on the longest existing
 * prefix, handle the missing tail lexically, and judge containment on the real path by comparing
 * path components (a string prefix would let `/work/root_evil` pass for `/work/root`).
 */
import { lstatSync, readlinkSync } from "node:fs";
import path from "node:path";

import { ToolFailure, badArgument, fromSystemError } from "./results.mjs";

const MAX_LINK_HOPS = 40; // what Linux allows before ELOOP
const SHOWN_MAX = 160;

/**
 * @typedef {{
 *   real: string,          // absolute path after links; its missing tail resolved lexically
 *   exists: boolean,       // false when some component does not exist yet
 *   missingFrom: string,   // the deepest existing folder on the way (for creating parents)
 *   shown: string,         // the path as the model should see it, relative to the root
 * }} Resolved
 */

/** @param {string} raw */
export function stripMention(raw) {
  return raw.startsWith("@") ? raw.slice(1) : raw;
}

/**
 * Whether `candidate` is `root` or below it, component by component.
 * @param {string} root
 * @param {string} candidate
 */
export function isWithin(root, candidate) {
  const rootParts = root.split(path.sep).filter(Boolean);
  const parts = candidate.split(path.sep).filter(Boolean);
  if (parts.length < rootParts.length) return false;
  return rootParts.every((part, index) => parts[index] === part);
}

/**
 * How a real path is shown to the model: relative to the root, `.` for the root itself.
 * @param {string} root
 * @param {string} real
 */
export function showPath(root, real) {
  const relative = path.relative(root, real);
  return relative === "" ? "." : relative;
}

/** @param {string} raw */
function quoteInput(raw) {
  const cut = raw.length > SHOWN_MAX ? `${raw.slice(0, SHOWN_MAX)}...` : raw;
  return JSON.stringify(cut);
}

/**
 * Resolves a path argument inside `root` (a real path), or throws a ToolFailure.
 * @param {string} root
 * @param {string} raw the argument as the model gave it
 * @param {string} [field] the argument's name, for INVALID_ARGS issues
 * @returns {Resolved}
 */
export function resolveInRoot(root, raw, field = "path") {
  if (raw.includes("\0")) {
    throw badArgument(
      field,
      "a path without NUL bytes",
      "a string containing a NUL byte",
      `${field} contains a NUL byte, which no file name can hold. Send the path without it.`,
    );
  }
  const given = stripMention(raw);
  const absolute = path.isAbsolute(given) ? given : `${root}${path.sep}${given}`;
  /** @type {string[]} */
  const pending = absolute.split(path.sep).reverse(); // a stack: next component on top
  let existing = path.sep;
  /** @type {string[]} */
  const missing = [];
  let hops = 0;

  while (pending.length > 0) {
    const part = /** @type {string} */ (pending.pop());
    if (part === "" || part === ".") continue;
    if (part === "..") {
      // Below a missing folder `..` can only undo that folder; on real folders it climbs the
      // real path, exactly as the kernel would after following the links on the way.
      if (missing.length > 0) missing.pop();
      else existing = path.dirname(existing);
      continue;
    }
    if (missing.length > 0) {
      missing.push(part);
      continue;
    }
    const candidate = path.join(existing, part);
    let stats;
    try {
      stats = lstatSync(candidate);
    } catch (error) {
      if (/** @type {any} */ (error).code === "ENOENT") {
        missing.push(part);
        continue;
      }
      throw outsideOr(root, candidate, raw, fromSystemError(error, quoteInput(raw)) ?? error);
    }
    if (stats.isSymbolicLink()) {
      if (++hops > MAX_LINK_HOPS) {
        throw outsideOr(
          root,
          candidate,
          raw,
          new ToolFailure(
            "IO_ERROR",
            `${quoteInput(raw)} runs into a loop of symbolic links. Use a path that avoids the looping link.`,
          ),
        );
      }
      const target = readlinkSync(candidate);
      if (path.isAbsolute(target)) existing = path.sep;
      for (const piece of target.split(path.sep).reverse()) pending.push(piece);
      continue;
    }
    if (!stats.isDirectory() && pending.some((rest) => rest !== "" && rest !== ".")) {
      throw outsideOr(
        root,
        candidate,
        raw,
        new ToolFailure(
          "NOT_A_DIRECTORY",
          `In ${quoteInput(raw)}, ${showPath(root, candidate)} is a file, so nothing can be below it. Fix the folder part of the path.`,
        ),
      );
    }
    existing = candidate;
  }

  const real = path.join(existing, ...missing);
  if (!isWithin(root, real)) throw outsideRoot(raw);
  return { real, exists: missing.length === 0, missingFrom: existing, shown: showPath(root, real) };
}

/** @param {string} raw */
function outsideRoot(raw) {
  return new ToolFailure(
    "OUTSIDE_ROOT",
    `${quoteInput(raw)} leads outside the workspace, which this tool may not touch. Use a path inside the workspace, relative to its root.`,
  );
}

/**
 * A problem met outside the root is reported as the escape it is, so that nothing about
 * outside places (whether they exist, what they are) reaches the model.
 * @param {string} root
 * @param {string} candidate
 * @param {string} raw
 * @param {unknown} failure
 */
function outsideOr(root, candidate, raw, failure) {
  return isWithin(root, candidate) ? failure : outsideRoot(raw);
}
