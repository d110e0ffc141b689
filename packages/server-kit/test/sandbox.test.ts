// sandboxCreditEngine(): every magic CPF of the documented table gives its outcome through service.fetch.
import { cpf } from '@fin/core';
import { sandboxTaxIds } from '@fin/server-kit';
import { describe, expect, it } from 'vitest';
import { cart, deviceImei, harness } from './support/harness.js';

const table = Object.entries(sandboxTaxIds);

describe('sandbox magic CPFs', () => {
  it('are valid CPFs (check digits), so POS-side validation lets them through', () => {
    for (const [taxId] of table) expect(cpf.isValid(taxId), taxId).toBe(true);
  });

  it.each(table)('%s gives its documented outcome', async (taxId, rule) => {
    const h = harness();
    const answer = await h.authorize(cart({ clientTaxId: taxId, price: 150_000, imei: deviceImei(7) }));
    if (rule.outcome === 'unavailable') {
      expect(answer.status).toBe(503);
      expect(answer.body.error.code).toBe('service_unavailable');
    } else if (rule.outcome === 'decline') {
      expect(answer.status).toBe(200);
      expect(answer.body.data).toMatchObject({
        authorized: false,
        declineReason: rule.declineReason,
        message: rule.message,
      });
    } else if (rule.outcome === 'approve_up_to') {
      expect(answer.body.data).toMatchObject({
        authorized: false,
        declineReason: 'INSUFFICIENT_CREDIT_LIMIT',
      });
      const within = await h.authorize(
        cart({ clientTaxId: taxId, price: rule.limitCents, imei: deviceImei(8) }),
      );
      expect(within.body.data.authorized).toBe(true);
    } else {
      expect(answer.body.data.authorized).toBe(true);
    }
  });

  it('any CPF not in the table is approved', async () => {
    const h = harness();
    expect((await h.authorize(cart({ clientTaxId: '39053344705' }))).body.data.authorized).toBe(true);
  });
});
