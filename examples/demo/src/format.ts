// Short, masked words for the timeline: who (CPF masked), which phone (IMEI masked), when, how much.
import type { Installment } from '@fin/core';
import { cpf, imei, money, nfeKey } from '@fin/core';
import type { Customer, Phone } from './cast.js';

export const who = (customer: Customer) => `${customer.name} (CPF ${cpf.mask(customer.taxId)})`;

export const phoneName = (phone: Phone) => `${phone.entry.product.name} (IMEI ${imei.mask(phone.imei)})`;

/** `15:51:02 UTC` */
export const clockTime = (iso: string | Date) => `${new Date(iso).toISOString().slice(11, 19)} UTC`;

/** `352611…4482`: the NF-e key masked (state, month and last digits only), shortened. */
export const invoiceKey = (key: string) => nfeKey.mask(key).replace(/\*+/, '…');

/** The installments three to a line, `number due-month amount`: ` 1 04/2026  R$ 547,15`. */
export function installmentLines(installments: readonly Installment[]): string[] {
  const cells = installments.map((installment) => {
    const [year, month] = installment.dueDate.split('-');
    return `${String(installment.number).padStart(2)} ${month}/${year} ${money.format(installment.amount).padStart(10)}`;
  });
  const lines: string[] = [];
  for (let i = 0; i < cells.length; i += 3) lines.push(cells.slice(i, i + 3).join('  '));
  return lines;
}
