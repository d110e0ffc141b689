// The nesting bound of a JSON request body, checked on its text before anything recurses over the parsed value.

/**
 * The deepest nesting of arrays and objects a request body may have (both servers, every route). The
 * deepest body of either API nests 3 levels; 64 leaves room for any extension field and keeps every
 * recursive walk (idempotency fingerprint, canonical JSON, validation, redaction) far from the stack limit.
 */
export const MAX_JSON_DEPTH = 64;

const OPEN_OBJECT = 0x7b; // {
const OPEN_ARRAY = 0x5b; // [
const CLOSE_OBJECT = 0x7d; // }
const CLOSE_ARRAY = 0x5d; // ]
const QUOTE = 0x22; // "
const BACKSLASH = 0x5c; // \

/**
 * Whether `text` (JSON, valid or not) opens more than `max` arrays or objects inside one another. One
 * pass over the characters, no recursion, stopping at the first level past `max`: safe on any input,
 * so it runs before `JSON.parse` and every walk of the value. Brackets inside strings do not count.
 */
export function exceedsJsonDepth(text: string, max: number = MAX_JSON_DEPTH): boolean {
  // Depth never exceeds the count of `{` and `[` in the text (inside strings or not): counting them with
  // the native `indexOf` settles every body of the API, which opens a dozen, without a pass in JavaScript.
  if (openersAtMost(text, max)) return false;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) {
      inString = true;
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      if (++depth > max) return true;
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      depth--;
    }
  }
  return false;
}

const OPENERS = ['{', '['] as const;

/** Whether `text` holds at most `max` opening brackets, of either kind. */
function openersAtMost(text: string, max: number): boolean {
  let count = 0;
  for (const opener of OPENERS) {
    for (let at = text.indexOf(opener); at !== -1; at = text.indexOf(opener, at + 1)) {
      if (++count > max) return false;
    }
  }
  return true;
}

/** The detail that names the bound, as both servers answer it (400 `bad_request`). */
export const jsonDepthIssue = (max: number = MAX_JSON_DEPTH) =>
  `nests arrays or objects deeper than ${max} levels`;
