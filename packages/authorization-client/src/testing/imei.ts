// generateImei(): a fresh valid IMEI for each sale of a test, so no test meets another's financing.
import { imei } from '@fin/core';
import { magicValues } from './magic-values.js';

/** The type allocation code of every generated IMEI (a reporting body's prefix, as real handsets carry). */
const TAC_PREFIX = '35';

/** Every IMEI this process generated: never twice the same, even across test files of one worker. */
const generated = new Set<string>();

function randomDigits(count: number): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(count)), (byte) => byte % 10).join('');
}

/**
 * A valid IMEI (15 digits, Luhn check digit) no earlier call of this process gave and no magic value uses:
 * the sandbox approves it (any valid IMEI not already financed is approved), in every test.
 */
export function generateImei(): string {
  for (;;) {
    const body = `${TAC_PREFIX}${randomDigits(12)}`;
    const checkDigit = [...'0123456789'].find((digit) => imei.isValid(`${body}${digit}`));
    const candidate = `${body}${checkDigit}`;
    const magic = Object.values(magicValues.imei) as string[];
    if (checkDigit !== undefined && !magic.includes(candidate) && !generated.has(candidate)) {
      generated.add(candidate);
      return candidate;
    }
  }
}
