// CPF, the individual taxpayer id: 11 digits, two mod-11 check digits; masked in logs as ***.456.789-**.
import { allSame, mod11 } from './check-digits.js';

const PATTERN = /^[0-9]{11}$/;
const FORMATTED = /^(\d{3})\.?(\d{3})\.?(\d{3})-?(\d{2})$/;

/** The spec's pattern `^[0-9]{11}$` (no mask) and both check digits; 000.000.000-00 and the like are refused. */
function isValidCpf(s: unknown): s is string {
  if (typeof s !== 'string' || !PATTERN.test(s) || allSame(s)) return false;
  const first = mod11(s.slice(0, 9));
  return s.charAt(9) === String(first) && s.charAt(10) === String(mod11(s.slice(0, 10)));
}

/** `12345678909` -> `123.456.789-09`; anything that is not 11 digits is returned unchanged. */
function formatCpf(s: string): string {
  const m = FORMATTED.exec(s);
  return m ? `${m[1]}.${m[2]}.${m[3]}-${m[4]}` : s;
}

/**
 * For logs: keeps digits 4 to 9, `12345678909` (or `123.456.789-09`) -> `***.456.789-**`.
 * Text of any other shape is starred out entirely.
 */
function maskCpf(s: string): string {
  const m = FORMATTED.exec(s);
  return m ? `***.${m[2]}.${m[3]}-**` : '*'.repeat(s.length);
}

// Unique local names, exported under the namespace's: the declaration bundle then needs no `name$N` alias.
export { formatCpf as format, isValidCpf as isValid, maskCpf as mask };
