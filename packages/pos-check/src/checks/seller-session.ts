// POST /v1/sellers/session: the test seller logs in, and a wrong password is a 200 with the status in the body, never a 401.
import { schemas } from '@fin/core';
import { z } from 'zod';
import { answerText, type Check, successData } from '../check.js';

/** What tells the two answers apart; the session's fields are the payload check's. */
const loginAnswer = z.union([
  z.object({ authorized: z.boolean(), status: schemas.sellerAuthStatus, session: z.unknown() }),
  schemas.sellerSessionFlat.pick({ storeId: true, accessToken: true }),
]);

const SESSION = 'POST /v1/sellers/session';

export const sellerSession: Check = {
  id: 'seller-session',
  title: 'Seller session: login, and a failed login answered 200 with its status',
  async run({ probe, options, violation }) {
    const login = await probe.send('createSellerSession', { body: options.seller });
    const session = loginAnswer.safeParse(successData(login));
    const result = session.success && 'authorized' in session.data ? session.data : undefined;
    if (!session.success || (result && !result.authorized)) {
      violation(
        SESSION,
        `the test seller's login; expected HTTP 200 with an authorized session, got ${answerText(login)}` +
          (result ? ` with status ${result.status}` : ''),
        'check the test seller credentials given to fin-pos-check; answer `data` as SellerAuthResult (shape a) or SellerSession (shape b)',
      );
    }
    const wrapped = result !== undefined;
    const failed = await probe.send('createSellerSession', {
      body: { ...options.seller, password: `wrong-${crypto.randomUUID()}` },
    });
    const refusal = loginAnswer.options[0].safeParse(successData(failed));
    if (refusal.success && !refusal.data.authorized && refusal.data.session === null) return;
    if (!wrapped && failed.status !== 401 && failed.status < 500) return; // shape (b): the spec shows success only
    violation(
      SESSION,
      `a wrong seller password; expected HTTP 200 with authorized false, status INVALID_PASSWORD or USER_NOT_FOUND and session null, got ${answerText(failed)}`,
      'answer a failed login with HTTP 200 and the result in `data.status`; a 401 on this endpoint means a bad system token, never a wrong password',
    );
  },
};
