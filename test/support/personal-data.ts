// fast-check arbitraries of valid personal data (CPF, IMEI, names, phones) for the "never leaks" property tests.
import { cpf, imei } from '@fin/core';
import fc from 'fast-check';

const digits = (n: number) => fc.stringMatching(new RegExp(`^[0-9]{${n}}$`));

/** `prefix` completed with the first `width`-digit suffix `isValid` accepts (the check digits). */
function completed(prefix: string, width: number, isValid: (s: string) => boolean): string {
  for (let n = 0; n < 10 ** width; n++) {
    const candidate = prefix + String(n).padStart(width, '0');
    if (isValid(candidate)) return candidate;
  }
  throw new Error(`no check digits for ${prefix}`);
}

/** A CPF with valid check digits, never all one digit (refused as a CPF). */
export const validCpf: fc.Arbitrary<string> = digits(9)
  .filter((nine) => new Set(nine).size > 1)
  .map((nine) => completed(nine, 2, cpf.isValid));

/** An IMEI with a valid Luhn digit. */
export const validImei: fc.Arbitrary<string> = digits(14).map((fourteen) =>
  completed(fourteen, 1, imei.isValid),
);

/** A person's name with a space in it (JSON of an event holds none, so it cannot match there by chance). */
export const personName: fc.Arbitrary<string> = fc.stringMatching(/^[A-Z][a-z]{2,12} [A-Z][a-z]{2,12}$/);

/** A Brazilian mobile number, 11 digits. */
export const phoneNumber: fc.Arbitrary<string> = digits(11);
