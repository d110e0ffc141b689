// NF-e access keys for sandbox confirms: a valid 44-character key per invoice number, check digit computed.
import { nfeKey } from '@fin/core';

/** The sandbox's issuer: a CNPJ with valid check digits (11.222.333/0001-81), state 35 (SP), model 55, series 1. */
const ISSUER = { state: '35', cnpj: '11222333000181', model: '55', series: '001' } as const;

/**
 * A valid NF-e access key for `invoiceNumber` (1 to 999 999 999; the `invoiceNumber` string a confirm
 * sends, or a number) issued in the month of `issuedAt`: the key a real invoice would carry, its check
 * digit computed, so a test confirms without doing it by hand.
 */
export function sandboxNfeAccessKey(invoiceNumber: string | number, issuedAt: Date = new Date()): string {
  const digits = typeof invoiceNumber === 'string' && /^\d{1,9}$/.test(invoiceNumber);
  const value = digits ? Number(invoiceNumber) : invoiceNumber;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1 || value > 999_999_999) {
    throw new RangeError('invoiceNumber must be an integer from 1 to 999999999 (a number or its digits)');
  }
  const yymm = issuedAt.toISOString().slice(2, 7).replace('-', '');
  const number = String(value).padStart(9, '0');
  // tpEmis 1 (normal issue), then cNF: the invoice number again, as an issuer's own 8-digit code.
  const code = number.slice(1);
  const { state, cnpj, model, series } = ISSUER;
  return nfeKey.withCheckDigit(`${state}${yymm}${cnpj}${model}${series}${number}1${code}`);
}
