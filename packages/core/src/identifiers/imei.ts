// IMEI, a handset's identity: 15 digits with a Luhn check digit; masked in logs down to its last 4 digits.
import { luhnValid } from './check-digits.js';

const PATTERN = /^[0-9]{15}$/;

/** The spec's pattern `^[0-9]{15}$` and the Luhn check digit; the all-zero IMEI is refused. */
function isValidImei(s: unknown): s is string {
  return typeof s === 'string' && PATTERN.test(s) && s !== '000000000000000' && luhnValid(s);
}

/** For logs: `490154203237518` -> `***********7518`; text of any other shape is starred out entirely. */
function maskImei(s: string): string {
  return PATTERN.test(s) ? `${'*'.repeat(11)}${s.slice(11)}` : '*'.repeat(s.length);
}

// Unique local names, exported under the namespace's: the declaration bundle then needs no `name$N` alias.
export { isValidImei as isValid, maskImei as mask };
