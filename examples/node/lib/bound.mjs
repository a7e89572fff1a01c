// @ts-check
/**
 * Output bounding: keep the head and the tail, say how much of the middle was cut (Claude Code caps
 * results at 50,000 characters, head + tail), and never split a character (@clarvis/agent-tools bounds on a
 * UTF-8 boundary). "Characters" are Unicode code points, so a surrogate pair is never cut in half.
 */

export const MAX_OUTPUT_CHARS = 50_000;

/** @param {number} count */
function marker(count) {
  return `\n[... ${count} characters cut from the middle; narrow the request to see them ...]\n`;
}

/**
 * Number of code points in `text`.
 * @param {string} text
 */
export function codePointLength(text) {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    count++;
  }
  return count;
}

/**
 * The first `count` code points of `text`.
 * @param {string} text
 * @param {number} count
 */
function headOf(text, count) {
  let units = 0;
  for (let taken = 0; taken < count && units < text.length; taken++) {
    units += isPairAt(text, units) ? 2 : 1;
  }
  return text.slice(0, units);
}

/**
 * The last `count` code points of `text`.
 * @param {string} text
 * @param {number} count
 */
function tailOf(text, count) {
  let start = text.length;
  for (let taken = 0; taken < count && start > 0; taken++) {
    start -= start >= 2 && isPairAt(text, start - 2) ? 2 : 1;
  }
  return text.slice(start);
}

/**
 * @param {string} text
 * @param {number} index
 */
function isPairAt(text, index) {
  const high = text.charCodeAt(index);
  const low = text.charCodeAt(index + 1);
  return high >= 0xd800 && high <= 0xdbff && low >= 0xdc00 && low <= 0xdfff;
}

/**
 * Bounds text that is known as a head, an already-dropped middle, and a tail.
 * The result, marker included, is at most `limit` code points.
 * @param {string} head
 * @param {number} droppedChars code points already dropped between head and tail
 * @param {string} tail
 * @param {number} [limit]
 */
export function boundPieces(head, droppedChars, tail, limit = MAX_OUTPUT_CHARS) {
  const headLength = codePointLength(head);
  const tailLength = codePointLength(tail);
  if (droppedChars === 0 && headLength + tailLength <= limit) return head + tail;
  // The marker's own length depends on the number it carries; size it for the worst case.
  const room = Math.max(0, limit - marker(headLength + droppedChars + tailLength).length);
  const keepHead = Math.min(headLength, Math.ceil(room / 2));
  const keepTail = Math.min(tailLength, room - keepHead);
  const cut = headLength - keepHead + droppedChars + (tailLength - keepTail);
  return headOf(head, keepHead) + marker(cut) + tailOf(tail, keepTail);
}

/**
 * @param {string} text
 * @param {number} [limit]
 */
export function boundText(text, limit = MAX_OUTPUT_CHARS) {
  if (text.length <= limit) return text; // code points <= code units
  const length = codePointLength(text);
  if (length <= limit) return text;
  const room = Math.max(0, limit - marker(length).length);
  const keepHead = Math.ceil(room / 2);
  const keepTail = room - keepHead;
  return headOf(text, keepHead) + marker(length - room) + tailOf(text, keepTail);
}

/**
 * Keeps the head and the tail of a byte stream in bounded memory while it flows (@clarvis/agent-tools:
 * bound while streaming, not after). Dropped bytes are counted as code points: every byte that
 * is not a UTF-8 continuation byte starts one.
 */
export class StreamBound {
  /** @param {number} [limit] characters wanted in the end; bytes kept are 4x that per side */
  constructor(limit = MAX_OUTPUT_CHARS) {
    this.sideBytes = limit * 4;
    /** @type {Buffer[]} */
    this.head = [];
    this.headBytes = 0;
    /** @type {Buffer[]} */
    this.tail = [];
    this.tailBytes = 0;
    this.droppedChars = 0;
    this.totalBytes = 0;
  }

  /** @param {Buffer} chunk */
  push(chunk) {
    this.totalBytes += chunk.length;
    if (this.headBytes < this.sideBytes) {
      const taken = chunk.subarray(0, this.sideBytes - this.headBytes);
      this.head.push(taken);
      this.headBytes += taken.length;
      chunk = chunk.subarray(taken.length);
    }
    if (chunk.length === 0) return;
    this.tail.push(chunk);
    this.tailBytes += chunk.length;
    while (this.tailBytes - this.tail[0].length >= this.sideBytes) {
      const evicted = /** @type {Buffer} */ (this.tail.shift());
      this.tailBytes -= evicted.length;
      this.droppedChars += countCharStarts(evicted);
    }
  }

  /** @param {number} [limit] */
  text(limit = MAX_OUTPUT_CHARS) {
    const headBuffer = Buffer.concat(this.head);
    if (this.tail.length === 0) return boundText(decodeLenient(headBuffer), limit);
    let tailBuffer = Buffer.concat(this.tail);
    // Whole characters only: move a head's unfinished character over to the tail, then drop
    // any continuation bytes the tail starts with (their lead byte was evicted and counted).
    const headEnd = completeLength(headBuffer);
    tailBuffer = Buffer.concat([headBuffer.subarray(headEnd), tailBuffer]);
    let skip = 0;
    while (skip < tailBuffer.length && skip < 4 && (tailBuffer[skip] & 0xc0) === 0x80) skip++;
    return boundPieces(
      decodeLenient(headBuffer.subarray(0, headEnd)),
      this.droppedChars,
      decodeLenient(tailBuffer.subarray(skip)),
      limit,
    );
  }
}

/** @param {Buffer} bytes */
function countCharStarts(bytes) {
  let count = 0;
  for (const byte of bytes) if ((byte & 0xc0) !== 0x80) count++;
  return count;
}

/**
 * Length of the longest prefix of `bytes` that does not end inside a UTF-8 sequence.
 * @param {Buffer} bytes
 */
function completeLength(bytes) {
  for (let back = 1; back <= Math.min(4, bytes.length); back++) {
    const byte = bytes[bytes.length - back];
    if ((byte & 0xc0) === 0x80) continue;
    const needed = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return needed > back ? bytes.length - back : bytes.length;
  }
  return bytes.length;
}

/** @param {Buffer} bytes */
export function decodeLenient(bytes) {
  return new TextDecoder("utf-8", { fatal: false, ignoreBOM: true }).decode(bytes);
}
