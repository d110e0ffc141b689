// Seller session: both request shapes and both response shapes give one normalized result; a failed login is a value.
import { isFinApiError } from '@fin/core';
import type { SellerLoginResult } from '@fin/pos-client';
import { afterAll, beforeEach, describe, expect, test } from 'vitest';
import { captureLog, sessionOf, startPartner } from './fixtures.js';

// A still clock, so two sessions opened a moment apart expire at the same instant.
const now = new Date('2026-05-04T12:00:00.000Z');
const partner = startPartner({
  size: { stores: 2, productsPerStore: 60, employees: 40 },
  clock: { now: () => now },
});
afterAll(partner.close);
const { sim } = partner;
const seller = sim.data.sellers.find((candidate) => candidate.isManager)!;
const store = sim.data.stores.find((candidate) => candidate.storeId === seller.storeId)!;

beforeEach(() => sim.setLoginShape('status-wrapped'));

/** The parts of a result that do not vary per login: the session token and the shape-only fields aside. */
const stable = (result: SellerLoginResult) => {
  if (!result.authorized) return result;
  const { accessToken, role, jobTitle, ...session } = result.session;
  expect(accessToken).toEqual(expect.any(String));
  return { ...result, message: expect.any(String), session };
};

describe('seller login', () => {
  test('both request shapes and both response shapes give the same normalized session', async () => {
    const pos = partner.client();
    const results: SellerLoginResult[] = [];
    for (const shape of ['status-wrapped', 'flat'] as const) {
      sim.setLoginShape(shape);
      results.push(await pos.sellers.login({ cpf: seller.cpf, password: seller.password }));
      results.push(await pos.sellers.login({ username: seller.username, password: seller.password }));
    }
    const [first, ...others] = results.map(stable);
    for (const other of others) expect(other).toEqual(first);
    expect(results[0]).toMatchObject({
      authorized: true,
      status: 'AUTHORIZED',
      session: {
        ...sessionOf(seller, store),
        isManager: true,
        jobTitle: seller.jobTitle,
      },
    });
    expect(results[2]).toMatchObject({ session: { role: 'MANAGER', isManager: true } });
    for (const result of results) expect(result.session?.expiresAt).toBeInstanceOf(Date);
  });

  test('R-01: the session gives the storeId the store-scoped calls need', async () => {
    const pos = partner.client();
    const result = await pos.sellers.login({ cpf: seller.cpf, password: seller.password });
    if (!result.authorized) throw new Error('expected a session');
    expect(await pos.store(result.session.storeId).plans.list()).toEqual(sim.data.plans);
  });

  test('a wrong password and an unknown user are values, the same in both response shapes', async () => {
    const pos = partner.client();
    for (const shape of ['status-wrapped', 'flat'] as const) {
      sim.setLoginShape(shape);
      const wrong = await pos.sellers.login({ cpf: seller.cpf, password: 'not-the-password' });
      const unknown = await pos.sellers.login({ username: 'nobody.here', password: 'whatever' });
      expect(wrong).toEqual({
        authorized: false,
        status: 'INVALID_PASSWORD',
        message: expect.any(String),
        session: null,
      });
      expect(unknown).toEqual({
        authorized: false,
        status: 'USER_NOT_FOUND',
        message: expect.any(String),
        session: null,
      });
      expect(wrong.message).toBe(unknown.message);
    }
  });

  test('a dismissed employee can no longer log in', async () => {
    const pos = partner.client();
    const [gone] = sim.employees.remove([sim.data.sellers.at(-1)!.cpf]);
    const former = { cpf: gone!.cpf, password: 'irrelevant' };
    expect(await pos.sellers.login(former)).toMatchObject({ authorized: false, status: 'USER_NOT_FOUND' });
  });

  test('a CPF that is not 11 digits is the partner’s 422, and the password is nowhere in the error', async () => {
    const pos = partner.client();
    const error = await pos.sellers
      .login({ cpf: '123.456', password: 'Secret-Pass-123' })
      .catch((caught: unknown) => caught);
    expect(isFinApiError(error, 'validation_error')).toBe(true);
    expect(JSON.stringify(error)).not.toContain('Secret-Pass-123');
    expect(String((error as Error).stack)).not.toContain('Secret-Pass-123');
  });

  test('cpf and username together, or no password, are refused before any request', async () => {
    const pos = partner.client();
    const before = sim.requests.count();
    const both = { cpf: seller.cpf, username: seller.username, password: 'x' };
    // @ts-expect-error one login shape at a time
    await expect(pos.sellers.login(both)).rejects.toMatchObject({ code: 'validation_error' });
    // @ts-expect-error the password is required
    await expect(pos.sellers.login({ cpf: seller.cpf })).rejects.toMatchObject({ code: 'validation_error' });
    expect(sim.requests.count()).toBe(before);
  });

  test('a 401 at login is a system-token problem: a wrong client secret is invalid_client, not a failed login', async () => {
    const pos = partner.client({ clientSecret: 'wrong-secret', maxRetries: 0 });
    const error = await pos.sellers
      .login({ cpf: seller.cpf, password: seller.password })
      .catch((caught) => caught);
    expect(isFinApiError(error, 'invalid_client')).toBe(true);
    expect(error).toMatchObject({ status: 401 });
  });

  test('an expired system token is renewed and the login replayed once', async () => {
    const pos = partner.client();
    await pos.sellers.login({ cpf: seller.cpf, password: seller.password });
    sim.tokens.expire();
    const before = sim.requests.count({ endpoint: 'POST /v1/oauth/token' });
    const result = await pos.sellers.login({ cpf: seller.cpf, password: seller.password });
    expect(result.authorized).toBe(true);
    expect(sim.requests.count({ endpoint: 'POST /v1/oauth/token' })).toBe(before + 1);
  });

  test('the password, CPF and tokens never reach the log', async () => {
    const log = captureLog();
    const pos = partner.client({ logger: log.logger });
    const result = await pos.sellers.login({ cpf: seller.cpf, password: seller.password });
    await pos.sellers.login({ username: seller.username, password: 'wrong-password-42' });
    expect(log.entries.length).toBeGreaterThan(0);
    const text = log.text();
    for (const secret of [seller.password, 'wrong-password-42', seller.cpf, sim.credentials.clientSecret]) {
      expect(text).not.toContain(secret);
    }
    if (result.authorized) expect(text).not.toContain(result.session.accessToken);
  });
});
