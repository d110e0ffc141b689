// DESIGN 17's one screen of text every store can hold (no NUL, no lone surrogate), for our schemas and partners' records.

/**
 * Text every store can hold: no NUL and no unpaired UTF-16 surrogate (PostgreSQL refuses both, and
 * neither is text a person typed). Paired surrogates (emoji) are fine.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is exactly what it refuses.
export const STORABLE_TEXT = /^[^\u0000\uD800-\uDFFF]*$/u;

/** Whether `value` passes DESIGN 17's screen. */
export const isStorableText = (value: string): boolean => STORABLE_TEXT.test(value);

/**
 * The path (`name`, `address.street`, `tags.2`) of the first string inside `value` that no store can hold,
 * or `undefined` when every string passes: how a partner's record is screened before any store sees it.
 */
export function unstorableField(value: unknown, path = ''): string | undefined {
  if (typeof value === 'string') return isStorableText(value) ? undefined : path || '(value)';
  if (typeof value !== 'object' || value === null) return undefined;
  for (const [key, inner] of Object.entries(value)) {
    const found = unstorableField(inner, path ? `${path}.${key}` : key);
    if (found !== undefined) return found;
  }
  return undefined;
}
