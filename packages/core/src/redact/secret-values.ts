// maskSecretValues: known secret values masked in text wherever they stand as a whole token, never inside a word.

/** Letters and digits of any script: what a secret standing alone must not touch on either side. */
const WORD = '[\\p{L}\\p{N}_]';

const escapeRegExp = (value: string) => value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Replaces each of `secrets` with `[REDACTED]` where it stands as a token of its own (`secret=s3cr3t&`,
 * `"s3cr3t"`, `s3cr3t.`), not where it is part of a longer word: the secret `p` masks `p=p` but leaves
 * `partner` alone. Empty secrets are ignored; longer secrets are tried first.
 */
export function maskSecretValues(text: string, secrets: readonly string[]): string {
  const values = [...new Set(secrets.filter((secret) => secret.length > 0))].sort(
    (a, b) => b.length - a.length,
  );
  if (values.length === 0) return text;
  const pattern = new RegExp(`(?<!${WORD})(?:${values.map(escapeRegExp).join('|')})(?!${WORD})`, 'gu');
  return text.replace(pattern, '[REDACTED]');
}
