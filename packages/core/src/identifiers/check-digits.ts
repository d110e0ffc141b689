// Check-digit arithmetic of Brazilian identifiers (mod 11) and of IMEIs (Luhn), on character values.

/**
 * A character's value for check digits: its ASCII code minus 48, so '0'..'9' are 0..9 and, for the
 * alphanumeric CNPJ (Receita Federal, July 2026), 'A'..'Z' are 17..42.
 */
const value = (char: string) => char.charCodeAt(0) - 48;

/**
 * The mod-11 check digit of `chars`: weights 2, 3, ... from the rightmost character, starting again
 * at 2 after `maxWeight` (9 for CNPJ and NF-e keys; CPF never wraps). A remainder of 0 or 1 gives 0.
 */
export function mod11(chars: string, maxWeight = Number.POSITIVE_INFINITY): number {
  let sum = 0;
  let weight = 2;
  for (let i = chars.length - 1; i >= 0; i--) {
    sum += value(chars.charAt(i)) * weight;
    weight = weight === maxWeight ? 2 : weight + 1;
  }
  const remainder = sum % 11;
  return remainder < 2 ? 0 : 11 - remainder;
}

/** True when the digit string passes the Luhn check (its last digit is the check digit). */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    const digit = value(digits.charAt(digits.length - 1 - i));
    const doubled = i % 2 === 1 ? digit * 2 : digit;
    sum += doubled > 9 ? doubled - 9 : doubled;
  }
  return sum % 10 === 0;
}

/** True when every character of `s` is the same one ("00000000000", "11111111111111"); no array per call. */
export function allSame(s: string): boolean {
  const first = s.charCodeAt(0);
  for (let i = 1; i < s.length; i++) if (s.charCodeAt(i) !== first) return false;
  return true;
}
