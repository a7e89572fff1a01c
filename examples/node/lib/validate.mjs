// @ts-check
/**
 * Checks arguments against a tool's own input schema (the one tools/list advertises, so the
 * model and the validator read one declaration, dskcode) and reports every problem at once as
 * {path, expected, received, message} issues. Only the schema keywords the tools use are known:
 * type, properties, required, additionalProperties: false, minLength, minimum, maximum.
 */

const RECEIVED_MAX = 60;

/** @typedef {import("./results.mjs").Issue} Issue */
/**
 * @typedef {{type: string, description?: string, minLength?: number, minimum?: number,
 *   maximum?: number}} FieldSchema
 * @typedef {{type: "object", properties: Record<string, FieldSchema>, required: string[],
 *   additionalProperties: false}} ObjectSchema
 */

/**
 * Describes any JSON value in at most 60 characters, however large it is.
 * @param {unknown} value
 */
export function describe(value) {
  let text;
  if (value === undefined) text = "nothing";
  else if (value === null) text = "null";
  else if (Array.isArray(value)) text = `an array of ${value.length} item${value.length === 1 ? "" : "s"}`;
  else if (typeof value === "object") {
    const keys = Object.keys(value);
    text = keys.length === 0 ? "an empty object" : `an object with keys ${keys.join(", ")}`;
  } else if (typeof value === "string") text = `the string ${JSON.stringify(value)}`;
  else if (typeof value === "number") text = `${Number.isInteger(value) ? "the integer" : "the number"} ${value}`;
  else text = `${typeof value} ${String(value)}`;
  return cut(text, RECEIVED_MAX);
}

/**
 * @param {string} text
 * @param {number} max code points
 */
function cut(text, max) {
  const points = Array.from(text.length > max * 2 + 8 ? text.slice(0, max * 2 + 8) : text);
  return points.length <= max ? points.join("") : `${points.slice(0, max - 3).join("")}...`;
}

/**
 * `$.name` for plain names; bracket form for names a dot path cannot spell.
 * @param {string} name
 */
function pointer(name) {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) ? `$.${name}` : `$[${JSON.stringify(cut(name, 60))}]`;
}

/** @param {unknown} value */
function jsonType(value) {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

/** @param {string} type */
function article(type) {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

/**
 * @param {string} tool
 * @param {ObjectSchema} schema
 * @param {unknown} args
 * @returns {Issue[]}
 */
export function validate(tool, schema, args) {
  if (jsonType(args) !== "object") {
    return [
      {
        path: "$",
        expected: "object",
        received: describe(args),
        message: `The arguments of ${tool} must be one JSON object with named fields, not ${describe(args)}.`,
      },
    ];
  }
  const given = /** @type {Record<string, unknown>} */ (args);
  const known = Object.keys(schema.properties);
  /** @type {Issue[]} */
  const issues = [];
  for (const name of schema.required) {
    if (!Object.hasOwn(given, name)) {
      issues.push({
        path: `$.${name}`,
        expected: "present",
        received: "nothing",
        message: `${name} is required by ${tool} but was not given: ${schema.properties[name].description ?? "add it"}`,
      });
    }
  }
  for (const [name, value] of Object.entries(given)) {
    const field = Object.hasOwn(schema.properties, name) ? schema.properties[name] : undefined;
    if (field === undefined) {
      const near = known.find((candidate) => candidate.toLowerCase() === name.toLowerCase().replace(/[-\s]/g, "_"));
      issues.push({
        path: pointer(name),
        expected: "absent",
        received: describe(value),
        message:
          `${cut(name, 40)} is not an argument of ${tool}; it takes ${known.join(", ")}.` +
          (near ? ` Did you mean ${near}?` : " Remove it."),
      });
      continue;
    }
    const issue = checkField(name, field, value);
    if (issue) issues.push(issue);
  }
  return issues;
}

/**
 * @param {string} name
 * @param {FieldSchema} field
 * @param {unknown} value
 * @returns {Issue | null}
 */
function checkField(name, field, value) {
  const actual = jsonType(value);
  const path = `$.${name}`;
  const received = describe(value);
  // JSON has one number type: 2.0 arrives as 2 and is an integer (dskcode, integer <-> number).
  const typeFits = actual === field.type || (field.type === "number" && actual === "integer");
  if (!typeFits) {
    return {
      path,
      expected: field.type,
      received,
      message: `${name} must be ${article(field.type)}, but ${received} was given.`,
    };
  }
  if (field.minLength !== undefined && typeof value === "string" && value.length < field.minLength) {
    return {
      path,
      expected: `string of length >= ${field.minLength}`,
      received,
      message: `${name} must not be empty.`,
    };
  }
  if (field.minimum !== undefined && typeof value === "number" && value < field.minimum) {
    return {
      path,
      expected: `${field.type} >= ${field.minimum}`,
      received,
      message: `${name} must be at least ${field.minimum}.`,
    };
  }
  if (field.maximum !== undefined && typeof value === "number" && value > field.maximum) {
    return {
      path,
      expected: `${field.type} <= ${field.maximum}`,
      received,
      message: `${name} must be at most ${field.maximum}.`,
    };
  }
  return null;
}
