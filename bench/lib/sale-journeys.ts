// Whole sale journeys for the soak: authorize, confirm, cancel (verified at once by the target's sale search), one after another per connection.
import { randomUUID } from 'node:crypto';
import { saleNumberOf } from '../targets/soak-service.js';
import { authorizeRequests } from './requests.js';

/** An NF-e access key whose check digit is right (the server-kit harness's). */
const NFE_KEY = '35260312345678000190550010000000771000000771';

export interface JourneyReport {
  /** Journeys whose three calls all answered 200 and whose cancellation was verified at once. */
  completed: number;
  /** Journeys that stopped at a call answering anything else (or a connection error), by step. */
  failed: { authorize: number; confirm: number; cancel: number };
  /** Authorizations the clients were told about (`authorized: true`). */
  authorized: number;
  seconds: number;
  /** The first failed answer's status and error code, per step (never a body: it may carry a CPF). */
  firstFailure: { [step: string]: string };
}

/**
 * `connections` workers each run one journey after another until `seconds` are up, then finish the one in
 * flight, so every write the server made has its answer counted.
 */
export async function saleJourneys(options: {
  url: string;
  token: string;
  seconds: number;
  connections: number;
}): Promise<JourneyReport> {
  const next = authorizeRequests(options.token, 60);
  const report: JourneyReport = {
    completed: 0,
    failed: { authorize: 0, confirm: 0, cancel: 0 },
    authorized: 0,
    seconds: 0,
    firstFailure: {},
  };
  const fail = (step: keyof JourneyReport['failed'], answer: { status: number; text: string }) => {
    report.failed[step] += 1;
    const code = /"code":"([a-z_]+)"/.exec(answer.text)?.[1] ?? 'no code';
    report.firstFailure[step] ??= `${answer.status} ${code}`;
  };
  /** A later call of the journey: its own request id and key, the journey's correlation id. */
  const post = async (path: string, body: string, correlationId: string) => {
    const response = await fetch(`${options.url}${path}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${options.token}`,
        'content-type': 'application/json',
        'idempotency-key': randomUUID(),
        'x-request-id': randomUUID(),
        'x-correlation-id': correlationId,
      },
      body,
    });
    return { ok: response.status === 200, status: response.status, text: await response.text() };
  };
  const journey = async () => {
    const { headers, body } = next();
    const imei = (JSON.parse(body) as { imei: string }).imei;
    const authorized = await fetch(`${options.url}/v1/sales/authorize`, { method: 'POST', headers, body })
      .then(async (response) => ({
        ok: response.status === 200,
        status: response.status,
        text: await response.text(),
      }))
      .catch(() => ({ ok: false, status: 0, text: '' }));
    const id = /"authorizationId":"([^"]+)"/.exec(authorized.text)?.[1];
    if (!authorized.ok || !authorized.text.includes('"authorized":true') || !id) {
      fail('authorize', authorized);
      return;
    }
    report.authorized += 1;
    const invoice = { saleNumber: saleNumberOf(imei), invoiceNumber: 'NF-1', nfeAccessKey: NFE_KEY };
    const confirmed = await post(
      `/v1/sales/${id}/confirm`,
      JSON.stringify({ ...invoice, invoicedAt: new Date().toISOString() }),
      headers['x-correlation-id']!,
    ).catch(() => ({ ok: false, status: 0, text: '' }));
    if (!confirmed.ok) {
      fail('confirm', confirmed);
      return;
    }
    const cancelled = await post(
      `/v1/sales/${id}/cancel`,
      JSON.stringify({ reason: 'CUSTOMER_REQUEST' }),
      headers['x-correlation-id']!,
    ).catch(() => ({ ok: false, status: 0, text: '' }));
    if (!cancelled.ok || !cancelled.text.includes('"financingCancelled":true')) {
      fail('cancel', cancelled);
      return;
    }
    report.completed += 1;
  };
  const startedAt = performance.now();
  const endsAt = startedAt + options.seconds * 1000;
  const worker = async () => {
    while (performance.now() < endsAt) await journey();
  };
  await Promise.all(Array.from({ length: options.connections }, worker));
  report.seconds = (performance.now() - startedAt) / 1000;
  return report;
}
