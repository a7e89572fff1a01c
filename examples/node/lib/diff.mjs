// @ts-check
/**
 * A unified diff of a file change (dskcode: "diff is part of the result, not a side effect").
 * Lines are compared after trimming the common head and tail; the middle goes through a plain
 * longest-common-subsequence table when small, or is shown as removed-then-added when large.
 */

const CONTEXT = 3;
const TABLE_CELLS_MAX = 4_000_000;

/**
 * @typedef {{kind: " " | "-" | "+", text: string}} Row
 */

/** @param {string} text */
function linesOf(text) {
  if (text === "") return [];
  const lines = text.split("\n");
  const last = lines.pop();
  // A last line without newline is marked, as diff(1) does.
  if (last !== "") lines.push(`${last}\n\\ No newline at end of file`);
  return lines.map((line) => line.replace(/\r(?=$|\n)/, ""));
}

/**
 * @param {string[]} before
 * @param {string[]} after
 * @returns {Row[]}
 */
function rows(before, after) {
  let head = 0;
  while (head < before.length && head < after.length && before[head] === after[head]) head++;
  let tail = 0;
  while (
    tail < before.length - head &&
    tail < after.length - head &&
    before[before.length - 1 - tail] === after[after.length - 1 - tail]
  ) {
    tail++;
  }
  const oldMiddle = before.slice(head, before.length - tail);
  const newMiddle = after.slice(head, after.length - tail);
  /** @type {Row[]} */
  const result = before.slice(0, head).map((text) => ({ kind: " ", text }));
  result.push(...middleRows(oldMiddle, newMiddle));
  result.push(...before.slice(before.length - tail).map((text) => /** @type {Row} */ ({ kind: " ", text })));
  return result;
}

/**
 * @param {string[]} a
 * @param {string[]} b
 * @returns {Row[]}
 */
function middleRows(a, b) {
  if (a.length * b.length > TABLE_CELLS_MAX) {
    return [...a.map((text) => /** @type {Row} */ ({ kind: "-", text })), ...b.map((text) => /** @type {Row} */ ({ kind: "+", text }))];
  }
  // lcs[i][j] = length of the longest common subsequence of a[i:] and b[j:]
  const lcs = Array.from({ length: a.length + 1 }, () => new Uint32Array(b.length + 1));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lcs[i][j] = a[i] === b[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
    }
  }
  /** @type {Row[]} */
  const result = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      result.push({ kind: " ", text: a[i++] });
      j++;
    } else if (i < a.length && (j === b.length || lcs[i + 1][j] >= lcs[i][j + 1])) {
      result.push({ kind: "-", text: a[i++] });
    } else {
      result.push({ kind: "+", text: b[j++] });
    }
  }
  return result;
}

/**
 * @param {string} before
 * @param {string} after
 * @param {string} shown the file's path as the model sees it
 * @returns {{diff: string, added: number, removed: number}}
 */
export function unifiedDiff(before, after, shown) {
  const all = rows(linesOf(before), linesOf(after));
  const changed = all.map((row, index) => (row.kind === " " ? -1 : index)).filter((index) => index >= 0);
  const added = all.filter((row) => row.kind === "+").length;
  const removed = all.filter((row) => row.kind === "-").length;
  if (changed.length === 0) return { diff: "", added, removed };

  const out = [`--- a/${shown}`, `+++ b/${shown}`];
  let index = 0;
  while (index < changed.length) {
    // Grow a hunk while the next change is within two context windows of the last one.
    let last = index;
    while (last + 1 < changed.length && changed[last + 1] - changed[last] <= CONTEXT * 2) last++;
    const from = Math.max(0, changed[index] - CONTEXT);
    const to = Math.min(all.length, changed[last] + CONTEXT + 1);
    const oldStart = all.slice(0, from).filter((row) => row.kind !== "+").length;
    const newStart = all.slice(0, from).filter((row) => row.kind !== "-").length;
    const hunk = all.slice(from, to);
    const oldCount = hunk.filter((row) => row.kind !== "+").length;
    const newCount = hunk.filter((row) => row.kind !== "-").length;
    out.push(`@@ -${oldCount === 0 ? oldStart : oldStart + 1},${oldCount} +${newCount === 0 ? newStart : newStart + 1},${newCount} @@`);
    for (const row of hunk) out.push(`${row.kind}${row.text}`);
    index = last + 1;
  }
  return { diff: `${out.join("\n")}\n`, added, removed };
}
