// What the checks learn from the partner once and share: the system token, a plan of the test store, a smartphone SKU.
import { schemas } from '@fin/core';
import { type Facts, skip, successData } from './check.js';
import type { PosCheckOptions } from './options.js';
import type { Exchange, Probe } from './probe.js';

const PARTNER_SCOPE_LIST = 'catalog:read inventory:read sales:read';

/** Requests a system token the usual way (client_secret_post); the body when it parses, else undefined. */
export async function requestToken(
  probe: Probe,
  options: PosCheckOptions,
  overrides: { clientSecret?: string; scope?: string; basic?: boolean } = {},
) {
  const secret = overrides.clientSecret ?? options.clientSecret;
  const scope = overrides.scope ?? PARTNER_SCOPE_LIST;
  if (overrides.basic) {
    // RFC 6749 2.3.1: both parts form-urlencoded before base64.
    const pair = `${encodeURIComponent(options.clientId)}:${encodeURIComponent(secret)}`;
    return probe.send('issueToken', {
      authorization: `Basic ${btoa(pair)}`,
      form: { grant_type: 'client_credentials', scope },
    });
  }
  return probe.send('issueToken', {
    authorization: null,
    form: { grant_type: 'client_credentials', client_id: options.clientId, client_secret: secret, scope },
  });
}

/** The access token of a 200 token answer, whatever else is wrong with it (the oauth checks say what). */
export function accessTokenOf(exchange: Exchange): string | undefined {
  const token = (exchange.body as { access_token?: unknown } | undefined)?.access_token;
  return exchange.status === 200 && typeof token === 'string' && token !== '' ? token : undefined;
}

/**
 * The string at `path` inside `value`, read loosely: a fact is taken from an answer whatever else is wrong
 * with it, so one broken rule fails only the check that guards it.
 */
function stringAt(value: unknown, ...path: (string | number)[]): string | undefined {
  let at = value;
  for (const step of path)
    at = typeof at === 'object' && at !== null ? (at as Record<string, unknown>)[step] : undefined;
  return typeof at === 'string' && at !== '' ? at : undefined;
}

const once = <T>(work: () => Promise<T>) => {
  let result: Promise<T> | undefined;
  return () => {
    result ??= work();
    return result;
  };
};

export function createFacts(probe: Probe, options: PosCheckOptions): Facts {
  const token = once(async () => {
    const exchange = await requestToken(probe, options);
    const accessToken = accessTokenOf(exchange);
    if (accessToken) probe.useToken(accessToken);
    return accessToken ?? '';
  });
  const planId = once(async () => {
    const exchange = await probe.send('listPlans', { query: { storeId: options.storeId } });
    return stringAt(successData(exchange), 'plans', 0, 'planId') ?? '';
  });
  const smartphoneSku = once(async () => {
    const imei = await probe.send('validateImei', {
      query: { storeId: options.storeId, imei: options.imei },
    });
    const fromImei = schemas.imeiValidation.safeParse(successData(imei)).data?.sku;
    if (fromImei) return fromImei;
    const plan = await planId();
    if (!plan) return '';
    const products = await probe.send('listProducts', { query: { storeId: options.storeId, planId: plan } });
    const listed = (successData(products) as { products?: unknown } | undefined)?.products;
    const smartphone = Array.isArray(listed)
      ? listed.findIndex((product) => product?.productType === 'SMARTPHONE')
      : -1;
    return stringAt(listed, smartphone, 'sku') ?? '';
  });

  const required = (what: string, get: () => Promise<string>) => async () =>
    (await get()) || skip(`needs ${what}, which the partner did not give (see the checks above)`);
  return {
    token: required('a system token', token),
    planId: required('a plan of the test store', planId),
    smartphoneSku: required('a smartphone SKU of the test store', smartphoneSku),
  };
}
