// @ts-check
/**
 * Bytes to text for the file tools. A file is text when it holds no NUL byte and is valid UTF-8
 * (dskcode: BINARY_FILE); a byte-order mark is kept as U+FEFF so an edit can put it back.
 */

/**
 * @param {Uint8Array} bytes
 * @returns {string | null} the text, or null when the bytes look binary
 */
export function decodeText(bytes) {
  if (bytes.includes(0)) return null;
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return null;
  }
}

/**
 * Splits text into lines without their line endings; a final newline does not start a line.
 * @param {string} text
 */
export function splitLines(text) {
  if (text === "") return [];
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  return lines.map((line) => (line.endsWith("\r") ? line.slice(0, -1) : line));
}

/**
 * @param {number} count
 * @param {string} noun
 */
export function plural(count, noun) {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}
