// The credit contract of DESIGN 5: principal = grandTotal, installments from money.allocate, adding up to the cent.
import { type Money, money } from '@fin/core';
import type { ContractRecord } from '../ports/records.js';
import { addMonths, calendarDate } from './calendar.js';

export interface ContractInput {
  contractId: string;
  principal: Money;
  installments: number;
  /** When the sale was invoiced: the first installment falls due one month after its calendar date. */
  invoicedAt: Date;
  createdAt: Date;
  timeZone: string;
}

/** The contract: equal monthly installments, the leftover cents on the first ones, summing to `principal`. */
export function buildContract(input: ContractInput): ContractRecord {
  const firstDay = calendarDate(input.invoicedAt, input.timeZone);
  return {
    contractId: input.contractId,
    principal: input.principal,
    installments: money.allocate(input.principal, input.installments).map((amount, index) => ({
      number: index + 1,
      amount,
      dueDate: addMonths(firstDay, index + 1),
    })),
    createdAt: input.createdAt.toISOString(),
  };
}
