// @ts-check
/**
 * Atomic replace (@clarvis/agent-tools): write a temporary file in the target's own folder, give it the
 * target's permission bits, then rename it over the target. Readers see the old file or the
 * new one, never half of either; a failure leaves no temporary file behind.
 */
import { randomBytes } from "node:crypto";
import { promises as fs } from "node:fs";
import path from "node:path";

/**
 * @param {string} target real path of the file to create or replace
 * @param {Uint8Array} bytes
 * @param {number | undefined} mode permission bits to keep; undefined for a new file
 */
export async function atomicWrite(target, bytes, mode) {
  const temporary = path.join(
    path.dirname(target),
    `.${path.basename(target).slice(0, 100)}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`,
  );
  const handle = await fs.open(temporary, "wx", 0o666);
  try {
    try {
      await handle.writeFile(bytes);
      if (mode !== undefined) await handle.chmod(mode & 0o7777);
    } finally {
      await handle.close();
    }
    await fs.rename(temporary, target);
  } catch (error) {
    await fs.rm(temporary, { force: true });
    throw error;
  }
}
