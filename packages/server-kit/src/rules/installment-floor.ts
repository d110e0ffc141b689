// Installments never fall under one cent (issue 24 §7, decision HP-7): the count is capped when a proposal is approved.
import type { Money } from '@fin/core';

/** The smallest installment a contract may carry, in cents. */
export const MIN_INSTALLMENT_CENTS = 1;

/**
 * How many installments `principal` can carry, at most `requested`: each at least `minInstallmentCents`
 * (`money.allocate` gives the leftover cents to the first ones, so the smallest is the floor of the
 * division). Always at least 1 (a financed amount is at least 1 cent). Applied when a proposal is approved,
 * before the customer sees the terms; a confirmation builds the contract from them unchanged.
 */
export function installmentsFor(
  principal: Money,
  requested: number,
  minInstallmentCents: number = MIN_INSTALLMENT_CENTS,
): number {
  const carried = (principal.amount - (principal.amount % minInstallmentCents)) / minInstallmentCents;
  return Math.max(1, Math.min(requested, carried));
}

/** Whether `principal` split in `installments` leaves every installment at or over the minimum. */
export const installmentsFit = (principal: Money, installments: number): boolean =>
  installmentsFor(principal, installments) === installments;
