// Shared data of the webhook tests: secrets, a fixed clock and one event of each known type.
import type { Clock, KnownWebhookEvent } from '@fin/core';

export const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
export const OTHER_SECRET = 'whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD';
export const NOW_SECONDS = 1_795_000_000;
export const fixedClock = (seconds = NOW_SECONDS): Clock => ({ now: () => new Date(seconds * 1000) });

const at = new Date(NOW_SECONDS * 1000).toISOString();
const base = { authorizationId: 'auth_1', storeId: 'store-1', sequence: 1, occurredAt: at };

export const contractCreated: KnownWebhookEvent = {
  id: 'evt_1',
  type: 'contract.created',
  timestamp: at,
  data: {
    ...base,
    status: 'CONFIRMED',
    contractId: 'ctr_1',
    principal: { amount: 189_990, currency: 'BRL' },
    source: 'CONFIRM',
  },
};
