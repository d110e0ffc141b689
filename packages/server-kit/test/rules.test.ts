// The rules as pure functions, at their edges, transitions and the contract.
import { money } from '@fin/core';
import {
  buildContract,
  checkCancellationBySaleSearch,
  checkCancelledAt,
  checkCancelTransition,
  checkCartTotals,
  checkConfirmTime,
  checkConfirmTransition,
  checkImeiNotFinanced,
  checkProposalReuse,
  checkSaleCeiling,
  declineResult,
  defaultProposalReusePolicy,
  isAuthorizationExpired,
  selectExchangeToReuse,
} from '@fin/server-kit/rules';
import { authorizationFixture, proposalFixture } from '@fin/server-kit/testing';
import { describe, expect, it } from 'vitest';
import { cart } from './support/harness.js';

const T0 = new Date('2026-03-02T12:00:00.000Z');
const at = (ms: number) => new Date(T0.getTime() + ms);
const MINUTE = 60_000;

describe('R-02 checkCartTotals', () => {
  it('R-02 and C-19: a line total other than unitPrice x quantity is a mismatch naming the line', () => {
    const body = cart();
    body.items[0] = { ...body.items[0]!, quantity: 2 };
    expect(checkCartTotals(body)).toMatchObject({
      ok: false,
      code: 'total_mismatch',
      details: [{ field: 'items.0.totalPrice' }],
    });
  });

  it('R-02: accepts exact sums, even of many small amounts (no float ever)', () => {
    const body = cart({ price: 10, services: Array.from({ length: 30 }, () => 1) });
    expect(checkCartTotals(body)).toEqual({ ok: true });
  });

  it('R-02: one cent off is a mismatch', () => {
    const body = cart({ services: [1] });
    body.totals.grandTotal = money.brl(body.totals.grandTotal.amount - 1);
    expect(checkCartTotals(body)).toMatchObject({ ok: false, code: 'total_mismatch' });
  });
});

describe('R-06 isAuthorizationExpired', () => {
  it('R-06: valid strictly before issue + 15 minutes', () => {
    const record = authorizationFixture({ issuedAt: T0.toISOString() });
    expect(isAuthorizationExpired(record, at(15 * MINUTE - 1))).toBe(false);
    expect(isAuthorizationExpired(record, at(15 * MINUTE))).toBe(true);
    expect(isAuthorizationExpired({ ...record, status: 'CONFIRMED' }, at(60 * MINUTE))).toBe(false);
  });
});

describe('R-07 declineResult', () => {
  it('R-07: a refusal always has a declineReason and a seller-facing message', () => {
    expect(declineResult('CREDIT_POLICY')).toEqual({
      authorized: false,
      declineReason: 'CREDIT_POLICY',
      message: expect.stringMatching(/\S/),
    });
  });
});

describe('R-10 checkImeiNotFinanced', () => {
  it('R-10: an active holder refuses; an expired or cancelled one does not', () => {
    const holder = authorizationFixture({ issuedAt: T0.toISOString() });
    expect(checkImeiNotFinanced(holder, at(MINUTE))).toEqual({ ok: false, code: 'imei_already_financed' });
    expect(checkImeiNotFinanced(holder, at(15 * MINUTE))).toEqual({ ok: true });
    expect(checkImeiNotFinanced({ ...holder, status: 'CANCELLED' }, at(MINUTE))).toEqual({ ok: true });
    expect(checkImeiNotFinanced(undefined, at(MINUTE))).toEqual({ ok: true });
  });
});

describe('R-08 checkCancellationBySaleSearch', () => {
  const sale = { saleNumber: 'S-1', saleDate: at(MINUTE).toISOString() };
  const record = authorizationFixture();
  it('R-08: CANCELLED verifies, ACTIVE or PENDING contradicts, nothing found stays pending', () => {
    expect(checkCancellationBySaleSearch(record, [{ ...sale, status: 'CANCELLED' }]).verification).toBe(
      'VERIFIED',
    );
    expect(checkCancellationBySaleSearch(record, [{ ...sale, status: 'ACTIVE' }]).verification).toBe(
      'CONTRADICTED',
    );
    expect(checkCancellationBySaleSearch(record, [{ ...sale, status: 'PENDING' }]).verification).toBe(
      'CONTRADICTED',
    );
    expect(checkCancellationBySaleSearch(record, []).verification).toBe('PENDING');
  });

  it('R-08: a sale of another device (when the POS names it) is not this authorization’s', () => {
    expect(
      checkCancellationBySaleSearch(record, [{ ...sale, status: 'CANCELLED', imei: '490154203237518' }])
        .verification,
    ).toBe('PENDING');
  });
});

describe('R-11 checkProposalReuse', () => {
  const proposal = proposalFixture({ approvedAt: T0.toISOString(), amount: money.brl(100_000) });
  const previous = authorizationFixture({
    proposalId: proposal.proposalId,
    status: 'CANCELLED',
    cancellation: {
      reason: 'EXCHANGE',
      noticedAt: T0.toISOString(),
      verification: 'VERIFIED',
      attempts: 1,
      nextAttemptAt: null,
      verifiedAt: T0.toISOString(),
    },
  });
  const input = { previous, proposal, uses: [previous], grandTotal: money.brl(100_000), now: at(MINUTE) };

  it('R-11: all five conditions hold: the next use slot', () => {
    expect(checkProposalReuse(input)).toEqual({ ok: true, proposalUse: 1 });
  });

  it.each([
    ['1 proposal_not_found', { previous: undefined }, 'proposal_not_found'],
    [
      '2 proposal_already_used (not cancelled)',
      { previous: { ...previous, status: 'CONFIRMED' as const } },
      'proposal_already_used',
    ],
    [
      '2 proposal_already_used (cancelled for another reason)',
      { previous: { ...previous, cancellation: { ...previous.cancellation!, reason: 'OTHER' } } },
      'proposal_already_used',
    ],
    [
      '3 proposal_reuse_window_expired',
      { now: new Date('2026-03-10T03:00:00.000Z') },
      'proposal_reuse_window_expired',
    ],
    [
      '4 proposal_reuse_amount_exceeded',
      { grandTotal: money.brl(100_001) },
      'proposal_reuse_amount_exceeded',
    ],
    [
      '5 proposal_reuse_limit_reached',
      { previous: { ...previous, proposalUse: 1 } },
      'proposal_reuse_limit_reached',
    ],
  ])('R-11 condition %s', (_, override, code) => {
    const merged = { ...input, ...override };
    const uses = merged.previous ? [merged.previous] : [];
    expect(checkProposalReuse({ ...merged, uses })).toEqual({ ok: false, code });
  });

  it('R-11: the ceiling is a whole percentage of the approved amount, computed in integers', () => {
    const policy = { ...defaultProposalReusePolicy, ceiling: 110 };
    expect(checkProposalReuse({ ...input, grandTotal: money.brl(110_000) }, policy).ok).toBe(true);
    expect(checkProposalReuse({ ...input, grandTotal: money.brl(110_001) }, policy).ok).toBe(false);
  });

  it('R-11: selectExchangeToReuse keeps to the store and prefers the newest notice', () => {
    const older = { ...previous, issuedAt: T0.toISOString() };
    const newer = { ...previous, authorizationId: 'auth_newer', issuedAt: at(MINUTE).toISOString() };
    const elsewhere = {
      ...previous,
      authorizationId: 'auth_else',
      storeId: 'store-9',
      issuedAt: at(2 * MINUTE).toISOString(),
    };
    expect(selectExchangeToReuse([older, elsewhere, newer], previous.storeId)?.authorizationId).toBe(
      'auth_newer',
    );
    expect(selectExchangeToReuse([elsewhere], previous.storeId)).toBeUndefined();
  });
});

describe('S-21 to S-23 checkConfirmTime and checkCancelledAt (spec 1.4, R-06)', () => {
  const record = { issuedAt: T0.toISOString(), expiresAt: at(15 * MINUTE).toISOString() };
  const policy = { clockSkewMs: 2 * MINUTE, confirmationGraceMs: 60 * MINUTE };
  const confirm = (invoicedMs: number, nowMs: number) =>
    checkConfirmTime(record, at(invoicedMs).toISOString(), at(nowMs), policy);

  it('S-21: invoicedAt from the issue less the skew to expiresAt exactly, never beyond now plus the skew', () => {
    expect(confirm(-2 * MINUTE, MINUTE)).toEqual({ ok: true });
    expect(confirm(15 * MINUTE, 16 * MINUTE)).toEqual({ ok: true });
    expect(confirm(3 * MINUTE, MINUTE)).toEqual({ ok: true });
    expect(confirm(-2 * MINUTE - 1, MINUTE)).toMatchObject({ code: 'validation_error' });
    expect(confirm(15 * MINUTE + 1, 16 * MINUTE)).toMatchObject({ code: 'authorization_expired' });
    expect(confirm(3 * MINUTE + 1, MINUTE)).toMatchObject({
      code: 'validation_error',
      details: [{ field: 'invoicedAt' }],
    });
  });

  it('S-22: a late confirm of a sale invoiced in time, up to the grace after expiresAt and not a millisecond more', () => {
    expect(confirm(5 * MINUTE, 75 * MINUTE)).toEqual({ ok: true });
    expect(confirm(5 * MINUTE, 75 * MINUTE + 1)).toMatchObject({
      code: 'authorization_expired',
      details: [{ field: 'id' }],
    });
  });

  it('S-23: cancelledAt not before the issue nor in the future, give or take the skew; absent is fine', () => {
    const cancel = (ms: number | undefined) =>
      checkCancelledAt(record, ms === undefined ? undefined : at(ms).toISOString(), at(MINUTE), policy);
    expect(cancel(undefined)).toEqual({ ok: true });
    expect(cancel(-2 * MINUTE)).toEqual({ ok: true });
    expect(cancel(3 * MINUTE)).toEqual({ ok: true });
    expect(cancel(-2 * MINUTE - 1)).toMatchObject({
      code: 'validation_error',
      details: [{ field: 'cancelledAt' }],
    });
    expect(cancel(3 * MINUTE + 1)).toMatchObject({
      code: 'validation_error',
      details: [{ field: 'cancelledAt' }],
    });
  });
});

describe('C-18 checkSaleCeiling', () => {
  it('C-18: up to the ceiling is fine, one cent over names the field', () => {
    expect(checkSaleCeiling(money.brl(1_000), 1_000, 'totals.grandTotal.amount')).toEqual({ ok: true });
    expect(checkSaleCeiling(money.brl(1_001), 1_000, 'totals.grandTotal.amount')).toMatchObject({
      ok: false,
      code: 'validation_error',
      details: [{ field: 'totals.grandTotal.amount' }],
    });
  });
});

describe('transitions (DESIGN 2)', () => {
  const record = authorizationFixture({ issuedAt: T0.toISOString() });
  const invoice = {
    saleNumber: 'S-1',
    invoiceNumber: '1',
    nfeAccessKey: '3'.repeat(44),
    invoicedAt: at(MINUTE).toISOString(),
  };

  it('confirm: AUTHORIZED and late-but-invoiced-in-time go; CANCELLED, pending notice and late invoices do not', () => {
    expect(checkConfirmTransition(record, invoice, at(MINUTE))).toEqual({ ok: true, already: false });
    expect(checkConfirmTransition({ ...record, status: 'EXPIRED' }, invoice, at(60 * MINUTE)).ok).toBe(true);
    expect(checkConfirmTransition({ ...record, status: 'CANCELLED' }, invoice, at(MINUTE))).toMatchObject({
      code: 'invalid_state_transition',
    });
    const late = { ...invoice, invoicedAt: at(16 * MINUTE).toISOString() };
    expect(checkConfirmTransition(record, late, at(16 * MINUTE))).toMatchObject({
      code: 'authorization_expired',
    });
  });

  it('cancel: AUTHORIZED and CONFIRMED go, CANCELLED answers as it is, EXPIRED refuses', () => {
    expect(checkCancelTransition(record, at(MINUTE))).toEqual({ ok: true, already: false });
    expect(checkCancelTransition({ ...record, status: 'CONFIRMED' }, at(60 * MINUTE))).toEqual({
      ok: true,
      already: false,
    });
    expect(checkCancelTransition({ ...record, status: 'CANCELLED' }, at(MINUTE))).toEqual({
      ok: true,
      already: true,
    });
    expect(checkCancelTransition(record, at(15 * MINUTE))).toMatchObject({
      code: 'invalid_state_transition',
    });
  });
});

describe('buildContract (DESIGN 5)', () => {
  it('splits the principal with money.allocate so installments add up to the cent; due dates clamp to month ends', () => {
    const contract = buildContract({
      contractId: 'ctr_1',
      principal: money.brl(100_001),
      installments: 4,
      invoicedAt: new Date('2026-01-31T18:00:00.000Z'),
      createdAt: T0,
      timeZone: 'America/Sao_Paulo',
    });
    expect(contract.installments.map((i) => i.amount.amount)).toEqual([25_001, 25_000, 25_000, 25_000]);
    expect(contract.installments.map((i) => i.dueDate)).toEqual([
      '2026-02-28',
      '2026-03-31',
      '2026-04-30',
      '2026-05-31',
    ]);
  });
});
