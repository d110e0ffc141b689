// NF-e access key: 44 characters identifying an electronic invoice, ending in a mod-11 check digit.
import { allSame, mod11 } from './check-digits.js';

// The spec writes `^[0-9]{44}$`; positions 7-20 carry the issuer's CNPJ, which may now be alphanumeric.
const PATTERN = /^[0-9]{6}[0-9A-Z]{12}[0-9]{26}$/;

/**
 * Pattern `^[0-9]{6}[0-9A-Z]{12}[0-9]{26}$` (no spaces, upper case) and the check digit: mod 11 with
 * weights 2..9 from the right over the first 43 characters, each as ASCII code minus 48.
 * The all-zero key is refused.
 */
function isValidNfeKey(s: unknown): s is string {
  if (typeof s !== 'string' || !PATTERN.test(s) || allSame(s)) return false;
  return s.charAt(43) === String(mod11(s.slice(0, 43), 9));
}

/**
 * The whole key from its first 43 characters (`cUF AAMM CNPJ mod serie nNF tpEmis cNF`), with the check digit
 * `isValid` expects appended. Throws a RangeError when the 43 characters do not fit the key's pattern.
 */
export function withCheckDigit(first43: string): string {
  if (!PATTERN.test(`${first43}0`))
    throw new RangeError('an NF-e key body is 43 characters: 6 digits, 12 digits or A-Z, 25 digits');
  return `${first43}${mod11(first43, 9)}`;
}

/** Groups of four as printed on the DANFE: `3524 0111 2223 ...`; any other shape is returned unchanged. */
function formatNfeKey(s: string): string {
  return PATTERN.test(s) ? (s.match(/.{4}/g) ?? []).join(' ') : s;
}

/**
 * For logs: keeps the state and month of issue (first 6) and the last 4 characters, hiding the issuer,
 * series and invoice number: `352401**********************************6780`.
 */
function maskNfeKey(s: string): string {
  return PATTERN.test(s) ? `${s.slice(0, 6)}${'*'.repeat(34)}${s.slice(40)}` : '*'.repeat(s.length);
}

// Unique local names, exported under the namespace's: the declaration bundle then needs no `name$N` alias.
export { formatNfeKey as format, isValidNfeKey as isValid, maskNfeKey as mask };
