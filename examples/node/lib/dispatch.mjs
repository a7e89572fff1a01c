// @ts-check
/**
 * The one dispatch point (dskcode / @clarvis/agent-tools): look the tool up, validate the arguments against
 * its own schema, run it, turn every failure (planned or not) into an envelope, and bound the
 * text the model will read. Nothing thrown inside a tool reaches the caller.
 */
import bash from "../tools/bash.mjs";
import editFile from "../tools/edit_file.mjs";
import grep from "../tools/grep.mjs";
import listFiles from "../tools/list_files.mjs";
import readFile from "../tools/read_file.mjs";
import writeFile from "../tools/write_file.mjs";
import { boundText } from "./bound.mjs";
import { isWithin, showPath } from "./paths.mjs";
import { ToolFailure, fail, fromSystemError } from "./results.mjs";
import { describe, validate } from "./validate.mjs";

/** @typedef {import("./context.mjs").Context} Context */
/** @typedef {import("./results.mjs").Envelope} Envelope */

/** Listing order is fixed: the same tools in the same order on every call. */
const TOOLS = [readFile, writeFile, editFile, listFiles, grep, bash];
const BY_NAME = new Map(TOOLS.map((tool) => [tool.name, tool]));
const ISSUES_IN_DATA_MAX = 8;

export function listTools() {
  return TOOLS.map(({ name, description, input_schema, kind, annotations }) => ({
    name,
    description,
    input_schema,
    kind,
    annotations,
  }));
}

/**
 * @param {unknown} name
 * @param {unknown} args
 * @param {Context} context
 * @returns {Promise<Envelope>}
 */
export async function callTool(name, args, context) {
  const tool = typeof name === "string" ? BY_NAME.get(name) : undefined;
  if (tool === undefined) {
    const asked = typeof name === "string" ? JSON.stringify(name.slice(0, 80)) : describe(name);
    return fail(
      "TOOL_NOT_FOUND",
      `There is no tool named ${asked}. The tools here are ${TOOLS.map((t) => t.name).join(", ")}; call one of them.`,
    );
  }
  const issues = validate(tool.name, /** @type {any} */ (tool.input_schema), args);
  if (issues.length > 0) {
    // The words stay short however many problems there are; `issues` carries all of them.
    const shownIssues = issues.slice(0, ISSUES_IN_DATA_MAX);
    const more = issues.length - shownIssues.length;
    const lines =
      shownIssues.map((issue) => `- ${issue.path}: ${issue.message.slice(0, 200)}`).join("\n") +
      (more > 0 ? `\n- and ${more} more, listed in issues` : "");
    return fail(
      "INVALID_ARGS",
      `${tool.name} was not run because its arguments have ${issues.length === 1 ? "a problem" : `${issues.length} problems`}:\n${lines}\nFix them and call ${tool.name} again.`,
      { issues },
    );
  }
  let envelope;
  try {
    envelope = await tool.run(/** @type {any} */ (args), context);
  } catch (error) {
    envelope = classify(error, tool.name, context.root);
  }
  return { ...envelope, data: boundText(envelope.data) };
}

/**
 * @param {unknown} error
 * @param {string} toolName
 * @param {string} root
 * @returns {Envelope}
 */
function classify(error, toolName, root) {
  if (error instanceof ToolFailure) return error.toEnvelope();
  const where = /** @type {any} */ (error)?.path;
  const shown = typeof where === "string" && isWithin(root, where) ? showPath(root, where) : "the path";
  const known = fromSystemError(error, shown);
  if (known) return known.toEnvelope();
  const message = error instanceof Error ? error.message : String(error);
  return fail(
    "EXECUTION_ERROR",
    `${toolName} failed unexpectedly (${message.slice(0, 300)}). This is a fault in the tool, not in your arguments; try another way to reach the goal.`,
  );
}
