#!/usr/bin/env node
// @ts-check
/**
 * agentconf-tools: an independent implementation of the agentconf tool contract in plain
 * Node.js (standard library only), spoken over the `cmd:` stdio protocol: newline-delimited
 * JSON-RPC 2.0 with `tools/list` and `tools/call` (agentconf/contract/protocol.py).
 *
 *   node agentconf-tools.mjs ROOT        (or set AGENTCONF_ROOT)
 *
 * Requests are handled concurrently and answered by id, in whatever order they finish. At end of
 * input the calls still running are finished and answered, then the process exits.
 */
import { realpathSync, statSync } from "node:fs";
import readline from "node:readline";

import { createContext, killAllGroups } from "./lib/context.mjs";
import { callTool, listTools } from "./lib/dispatch.mjs";

const SERVER = { name: "agentconf-node-example", version: "0.1.0" };
const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;
const METHOD_NOT_FOUND = -32601;
const INVALID_PARAMS = -32602;
const INTERNAL_ERROR = -32603;

/** Exits with one clear line when the root is missing or unusable. */
function rootOrExit() {
  const given = process.argv[2] ?? process.env.AGENTCONF_ROOT;
  if (given === "--help" || given === "-h") {
    process.stdout.write("usage: node agentconf-tools.mjs ROOT   (or AGENTCONF_ROOT=ROOT)\n");
    process.exit(0);
  }
  if (!given) {
    process.stderr.write("agentconf-tools: no workspace root; pass it as the first argument or set AGENTCONF_ROOT\n");
    process.exit(2);
  }
  try {
    const real = realpathSync(given);
    if (!statSync(real).isDirectory()) throw new Error("not a folder");
    return real;
  } catch (error) {
    const why = /** @type {any} */ (error).code === "ENOENT" ? "does not exist" : "is not a usable folder";
    process.stderr.write(`agentconf-tools: the workspace root ${JSON.stringify(given)} ${why}\n`);
    process.exit(2);
  }
}

const context = createContext(rootOrExit());

/** @param {object} message */
function send(message) {
  process.stdout.write(`${JSON.stringify({ jsonrpc: "2.0", ...message })}\n`);
}

/**
 * @param {unknown} id
 * @param {number} code
 * @param {string} message
 */
function sendError(id, code, message) {
  send({ id: id ?? null, error: { code, message } });
}

/** @param {unknown} id */
function validId(id) {
  return typeof id === "string" || (typeof id === "number" && Number.isFinite(id));
}

/** @param {string} line */
async function handle(line) {
  if (line.trim() === "") return;
  let request;
  try {
    request = JSON.parse(line);
  } catch {
    sendError(null, PARSE_ERROR, "The line is not valid JSON; send one JSON-RPC request per line.");
    return;
  }
  if (request === null || typeof request !== "object" || Array.isArray(request) || typeof request.method !== "string") {
    const id = request && typeof request === "object" && validId(request.id) ? request.id : null;
    sendError(id, INVALID_REQUEST, "A request must be a JSON object with a string method (batches are not supported).");
    return;
  }
  const isNotification = !("id" in request);
  const id = request.id;
  const answer = (/** @type {unknown} */ result) => {
    if (!isNotification) send({ id, result });
  };
  const params = request.params;

  switch (request.method) {
    case "initialize":
      answer({ serverInfo: SERVER, ...SERVER, capabilities: { tools: {} } });
      return;
    case "shutdown":
      answer(null);
      return;
    case "tools/list":
      answer({ tools: listTools() });
      return;
    case "tools/call": {
      if (params === null || typeof params !== "object" || Array.isArray(params)) {
        if (!isNotification) sendError(id, INVALID_PARAMS, 'tools/call needs params {"name": ..., "arguments": {...}}.');
        return;
      }
      const args = "arguments" in params ? params.arguments : {};
      answer(await callTool(params.name, args, context));
      return;
    }
    default:
      if (!isNotification) sendError(id, METHOD_NOT_FOUND, `Unknown method ${JSON.stringify(request.method)}; this server answers tools/list and tools/call.`);
  }
}

/** @type {Set<Promise<void>>} */
const inFlight = new Set();

const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
lines.on("line", (line) => {
  const work = handle(line).catch((error) => {
    // Only a bug in this file gets here (tools never throw): answer rather than die.
    process.stderr.write(`agentconf-tools: ${error?.stack ?? error}\n`);
    sendError(null, INTERNAL_ERROR, "The server failed while handling a request.");
  });
  inFlight.add(work);
  work.finally(() => inFlight.delete(work));
});
lines.on("close", async () => {
  await Promise.allSettled([...inFlight]);
  killAllGroups(context);
  process.stdout.write("", () => process.exit(0));
});

process.stdout.on("error", () => {
  // The reader went away: nobody is left to answer.
  killAllGroups(context);
  process.exit(0);
});
for (const signal of /** @type {const} */ (["SIGTERM", "SIGINT", "SIGHUP"])) {
  process.on(signal, () => {
    killAllGroups(context);
    process.exit(128 + (signal === "SIGTERM" ? 15 : signal === "SIGINT" ? 2 : 1));
  });
}
