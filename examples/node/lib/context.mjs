// @ts-check
/**
 * What every tool is given: the workspace root (a real path), this session's read ledger and
 * path locks, and the process groups of running commands (killed if the server has to stop).
 */
import { PathLocks, ReadLedger } from "./session.mjs";

/**
 * @typedef {{root: string, ledger: ReadLedger, locks: PathLocks, groups: Set<number>}} Context
 */

/**
 * @param {string} root
 * @returns {Context}
 */
export function createContext(root) {
  return { root, ledger: new ReadLedger(), locks: new PathLocks(), groups: new Set() };
}

/** @param {Context} context */
export function killAllGroups(context) {
  for (const group of context.groups) {
    try {
      process.kill(-group, "SIGKILL");
    } catch {
      // already gone
    }
  }
  context.groups.clear();
}
