// @ts-check
/**
 * Finding old_text in a file and splicing new_text in, keeping every byte outside the replaced
 * span (dskcode: match on LF-normalised text, write back in the file's own line endings;
 * Claude Code: straight quotes in old_text match curly quotes in the file).
 *
 * Matching runs on a normalised view of the file (CRLF -> LF, curly quotes -> straight) that
 * remembers where each of its characters came from, so a match maps back to an exact span of
 * the original text; only that span is replaced.
 */

const QUOTES = new Map([
  ["\u2018", "'"],
  ["\u2019", "'"],
  ["\u2032", "'"],
  ["\u201c", '"'],
  ["\u201d", '"'],
  ["\u2033", '"'],
]);

/**
 * @typedef {{start: number, end: number}} Span  indexes into the original text
 * @typedef {{spans: Span[], normalised: boolean}} Found
 */

/**
 * @param {string} text
 * @returns {{view: string, origin: number[]}} origin[i] = index in `text` of view[i]; one extra
 *   entry at the end equals text.length
 */
function normalisedView(text) {
  let view = "";
  /** @type {number[]} */
  const origin = [];
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    origin.push(i);
    if (char === "\r" && text[i + 1] === "\n") {
      view += "\n"; // one "\n" in the view stands for the whole "\r\n"
      i++;
      continue;
    }
    view += QUOTES.get(char) ?? char;
  }
  origin.push(text.length);
  return { view, origin };
}

/** @param {string} text */
function normalise(text) {
  return normalisedView(text).view;
}

/**
 * Non-overlapping occurrences of `needle` in `haystack`, left to right.
 * @param {string} haystack
 * @param {string} needle
 */
function occurrences(haystack, needle) {
  /** @type {number[]} */
  const found = [];
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + needle.length)) {
    found.push(at);
  }
  return found;
}

/**
 * Where `oldText` occurs in `text`: exactly if it does, else through the normalised view.
 * @param {string} text
 * @param {string} oldText
 * @returns {Found}
 */
export function findSpans(text, oldText) {
  const exact = occurrences(text, oldText);
  if (exact.length > 0) {
    return { spans: exact.map((start) => ({ start, end: start + oldText.length })), normalised: false };
  }
  const { view, origin } = normalisedView(text);
  const needle = normalise(oldText);
  if (needle === "") return { spans: [], normalised: true };
  const spans = occurrences(view, needle).map((at) => ({ start: origin[at], end: origin[at + needle.length] }));
  return { spans, normalised: true };
}

/**
 * The line ending new lines should get inside `span`: the span's own if it has one kind,
 * otherwise the file's more common one.
 * @param {string} text
 * @param {Span} span
 */
function lineEndingFor(text, span) {
  const inside = text.slice(span.start, span.end);
  const crlfInside = countCrlf(inside);
  const lfInside = countLf(inside) - crlfInside;
  if (crlfInside > 0 && lfInside === 0) return "\r\n";
  if (lfInside > 0 && crlfInside === 0) return "\n";
  const crlf = countCrlf(text);
  return crlf > countLf(text) - crlf ? "\r\n" : "\n";
}

/** @param {string} text */
function countCrlf(text) {
  return text.split("\r\n").length - 1;
}

/** @param {string} text */
function countLf(text) {
  return text.split("\n").length - 1;
}

/**
 * Replaces each span with `newText`, literally (no `$&` or `\1` expansion: plain slicing), with
 * its new lines in the line ending that fits the span.
 * @param {string} text
 * @param {Span[]} spans ascending, non-overlapping
 * @param {string} newText
 */
export function splice(text, spans, newText) {
  const lfText = newText.replace(/\r\n/g, "\n");
  let result = "";
  let cursor = 0;
  for (const span of spans) {
    const replacement = lfText.includes("\n") ? lfText.split("\n").join(lineEndingFor(text, span)) : newText;
    result += text.slice(cursor, span.start) + replacement;
    cursor = span.end;
  }
  return result + text.slice(cursor);
}

/**
 * 1-based line number at which `index` falls.
 * @param {string} text
 * @param {number} index
 */
export function lineAt(text, index) {
  return text.slice(0, index).split("\n").length;
}
