// The API client the mutual TLS tests bind to a certificate: `bound` / `b0und`, store-1, sales:authorize.
import type { ClientRegistration } from '@fin/server-kit';

export const boundClient = (sha256: string): ClientRegistration => ({
  clientId: 'bound',
  clientSecret: 'b0und',
  scopes: ['sales:authorize'],
  storeIds: ['store-1'],
  certificate: { sha256 },
});
