// @ts-check
/**
 * bash{command, timeout_ms?}: run a command with the workspace root as its working directory.
 * The command gets its own process group (detached), stdin at end of input, and output bounded
 * while it streams (head and tail kept). On timeout the whole group gets SIGTERM, then SIGKILL
 * after a grace period (dskcode's two-stage kill); when the command ends, whatever it left
 * running in its group is killed too, so no process outlives the call. A non-zero exit is a
 * failure that still carries stdout, stderr and the exit code (Claude Code).
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { constants } from "node:os";

import { StreamBound } from "../lib/bound.mjs";
import { ToolFailure, fail, ok } from "../lib/results.mjs";

const DEFAULT_TIMEOUT_MS = 30_000;
const MAX_TIMEOUT_MS = 600_000;
const KILL_GRACE_MS = 1_000;
const DRAIN_WAIT_MS = 1_000;
const SHELL = existsSync("/bin/bash") ? "/bin/bash" : "/bin/sh";

/** @typedef {import("../lib/context.mjs").Context} Context */

export default {
  name: "bash",
  kind: "other",
  // MCP's behaviour hints, each a claim the ANNOTATION clauses judge on the disk.
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  description:
    "Run a shell command in the workspace root and return its stdout and stderr. stdin is " +
    "empty, so interactive prompts end at once. A command that exits non-zero is reported as a " +
    `failure with its exit code and output. Commands are stopped after timeout_ms (default ${DEFAULT_TIMEOUT_MS}).`,
  input_schema: {
    type: "object",
    properties: {
      command: { type: "string", minLength: 1, description: "The command line, run by bash -c." },
      timeout_ms: {
        type: "integer",
        minimum: 1,
        maximum: MAX_TIMEOUT_MS,
        description: `Milliseconds before the command and everything it started are killed (default ${DEFAULT_TIMEOUT_MS}).`,
      },
    },
    required: ["command"],
    additionalProperties: false,
  },

  /**
   * @param {{command: string, timeout_ms?: number}} args
   * @param {Context} context
   */
  async run(args, context) {
    const timeout = args.timeout_ms ?? DEFAULT_TIMEOUT_MS;
    const run = await execute(args.command, timeout, context);
    const exitCode = run.code ?? 128 + (constants.signals[/** @type {NodeJS.Signals} */ (run.signal)] ?? 0);
    if (run.timedOut) {
      return fail(
        "TIMEOUT",
        `The command was still running after ${timeout} ms, so it and every process it started were killed. ` +
          "Run something shorter, raise timeout_ms, or split the work.\n" +
          sections(run.stdout, run.stderr),
      );
    }
    if (exitCode !== 0) {
      const how = run.code === null ? `was killed by ${run.signal} (exit code ${exitCode})` : `exited with code ${exitCode}`;
      return fail(
        "NONZERO_EXIT",
        `The command ${how}. Read stderr and stdout below, fix the cause, then run it again.\n` +
          sections(run.stdout, run.stderr),
        { exit_code: exitCode },
      );
    }
    if (run.stdout === "" && run.stderr === "") {
      return ok("The command succeeded (exit code 0) and printed nothing.", { exit_code: 0 });
    }
    const data = run.stderr === "" ? run.stdout : `${run.stdout}${run.stdout === "" || run.stdout.endsWith("\n") ? "" : "\n"}[stderr]\n${run.stderr}`;
    return ok(data, { exit_code: 0 });
  },
};

/**
 * @param {string} stdout
 * @param {string} stderr
 */
function sections(stdout, stderr) {
  return `[stdout]\n${stdout === "" ? "(nothing)\n" : stdout}${stdout.endsWith("\n") || stdout === "" ? "" : "\n"}[stderr]\n${stderr === "" ? "(nothing)" : stderr}`;
}

/**
 * @param {string} command
 * @param {number} timeout
 * @param {Context} context
 * @returns {Promise<{code: number | null, signal: string | null, stdout: string, stderr: string, timedOut: boolean}>}
 */
function execute(command, timeout, context) {
  return new Promise((resolve, reject) => {
    const child = spawn(SHELL, ["-c", command], {
      cwd: context.root,
      detached: true, // its own process group, so the group can be killed as one
      stdio: ["ignore", "pipe", "pipe"],
    });
    const stdout = new StreamBound();
    const stderr = new StreamBound();
    child.stdout.on("data", (chunk) => stdout.push(chunk));
    child.stderr.on("data", (chunk) => stderr.push(chunk));

    const group = child.pid;
    if (group === undefined) {
      child.once("error", (error) =>
        reject(new ToolFailure("EXECUTION_ERROR", `The shell could not be started (${error.message}). Nothing ran; report this.`)),
      );
      return;
    }
    child.on("error", () => {}); // a late error (after spawn) changes nothing: "exit" still decides
    context.groups.add(group);
    /** @param {NodeJS.Signals} signal */
    const signalGroup = (signal) => {
      try {
        process.kill(-group, signal);
      } catch {
        // the group is already empty
      }
    };

    let timedOut = false;
    /** @type {NodeJS.Timeout | undefined} */
    let killTimer;
    const timer = setTimeout(() => {
      timedOut = true;
      signalGroup("SIGTERM");
      killTimer = setTimeout(() => signalGroup("SIGKILL"), KILL_GRACE_MS);
    }, timeout);

    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      clearTimeout(killTimer);
      signalGroup("SIGKILL"); // leftovers in the group: nothing outlives the call
      context.groups.delete(group);
      // Output still in the pipes is collected; a process that left the group and kept the
      // pipes open is not waited for.
      let pending = 2;
      const finish = () => {
        clearTimeout(drainTimer);
        resolve({ code, signal, stdout: stdout.text(), stderr: stderr.text(), timedOut });
      };
      const drainTimer = setTimeout(() => {
        child.stdout.destroy();
        child.stderr.destroy();
        finish();
      }, DRAIN_WAIT_MS);
      const closed = () => {
        if (--pending === 0) finish();
      };
      if (child.stdout.closed) closed();
      else child.stdout.once("close", closed);
      if (child.stderr.closed) closed();
      else child.stderr.once("close", closed);
    });
  });
}
