// @ts-check
/**
 * Per-session state: what this session has read (read-before-edit and the stale-read guard,
 * Claude Code), and one lock per path so that writes to one file never interleave (@clarvis/agent-tools).
 * One process is one session.
 */
import { createHash } from "node:crypto";

import { ToolFailure } from "./results.mjs";

/** @param {Uint8Array} bytes */
export function fingerprint(bytes) {
  return createHash("sha256").update(bytes).digest("hex");
}

/**
 * Remembers the content this session last saw of each file. Content, not mtime: a change made
 * within the clock's resolution, or one that restores the old mtime, is still a change.
 */
export class ReadLedger {
  constructor() {
    /** @type {Map<string, string>} real path -> fingerprint */
    this.seen = new Map();
  }

  /**
   * @param {string} real
   * @param {string} print
   */
  remember(real, print) {
    this.seen.set(real, print);
  }

  /**
   * Throws NOT_READ or STALE_READ unless `currentBytes` is what this session last saw.
   * @param {string} real
   * @param {string} shown
   * @param {Uint8Array} currentBytes
   * @param {string} verb what the caller wants to do, for the message
   */
  require(real, shown, currentBytes, verb) {
    const last = this.seen.get(real);
    if (last === undefined) {
      throw new ToolFailure(
        "NOT_READ",
        `${shown} has not been read in this session, so it cannot be ${verb} yet. Call read_file on it first, then try again.`,
      );
    }
    if (last !== fingerprint(currentBytes)) {
      throw new ToolFailure(
        "STALE_READ",
        `${shown} changed on disk since this session last read it; it was not ${verb}. Read it again to see the current text, then redo the change.`,
      );
    }
  }
}

/** Serialises work per key; different keys run freely. */
export class PathLocks {
  constructor() {
    /** @type {Map<string, Promise<unknown>>} */
    this.tails = new Map();
  }

  /**
   * @template T
   * @param {string} key
   * @param {() => Promise<T>} work
   * @returns {Promise<T>}
   */
  run(key, work) {
    const before = this.tails.get(key) ?? Promise.resolve();
    const result = before.then(work, work);
    const settled = result.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(key, settled);
    settled.then(() => {
      if (this.tails.get(key) === settled) this.tails.delete(key);
    });
    return result;
  }
}
