// Valid-looking identifiers for the simulated partner: the check digits come from core's own validators.
import { cnpj, cpf, imei, nfeKey } from '@fin/core';
import type { Random } from './random.js';

/** Appends the one `width`-digit suffix that `isValid` accepts, so no check-digit arithmetic is repeated here. */
function complete(base: string, width: number, isValid: (s: string) => boolean): string {
  for (let n = 0; n < 10 ** width; n++) {
    const candidate = base + String(n).padStart(width, '0');
    if (isValid(candidate)) return candidate;
  }
  throw new Error(`no check digits complete ${base.length}-digit base`);
}

export const makeCpf = (random: Random) => complete(`${random.int(1, 9)}${random.digits(8)}`, 2, cpf.isValid);

export const makeCnpj = (random: Random) =>
  complete(`${random.int(10, 99)}${random.digits(6)}0001`, 2, cnpj.isValid);

/** A Luhn-valid IMEI whose first 8 digits are the model's type allocation code. */
export const makeImei = (random: Random, tac: string) => complete(tac + random.digits(6), 1, imei.isValid);

/**
 * A 44-digit NF-e access key: state 35 (SP), year and month of issue, the store's CNPJ, model 55,
 * series, invoice number, emission type 1, a random code, then the check digit.
 */
export function makeNfeKey(random: Random, storeCnpj: string, issuedAt: Date, invoiceNumber: number): string {
  const yymm = issuedAt.toISOString().slice(2, 7).replace('-', '');
  const base = `35${yymm}${storeCnpj}55001${String(invoiceNumber).padStart(9, '0')}1${random.digits(8)}`;
  return complete(base, 1, nfeKey.isValid);
}
