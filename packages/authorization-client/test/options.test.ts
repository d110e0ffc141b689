// The clients take every transport option: their options types derive from the transport's, never restate it.
import type { AuthorizationClientOptions } from '@fin/authorization-client';
import type { HttpClientOptions } from '@fin/core/transport';
import type { PosClientOptions } from '@fin/pos-client';
import { describe, expectTypeOf, it } from 'vitest';

/** The transport options a client may take: all but the scopes, which each client fixes or narrows. */
type TransportKeys = Exclude<keyof HttpClientOptions, 'scopes'>;

describe('client options derive from the transport options (issue 17)', () => {
  it('AuthorizationClientOptions takes every transport option with its type, clock, random and backoff included', () => {
    expectTypeOf<Pick<AuthorizationClientOptions, TransportKeys>>().toEqualTypeOf<
      Pick<HttpClientOptions, TransportKeys>
    >();
    expectTypeOf<AuthorizationClientOptions>().toHaveProperty('clock');
    expectTypeOf<AuthorizationClientOptions>().toHaveProperty('random');
    expectTypeOf<AuthorizationClientOptions>().toHaveProperty('backoff');
  });

  it('PosClientOptions takes every transport option with its type', () => {
    expectTypeOf<Pick<PosClientOptions, TransportKeys>>().toEqualTypeOf<
      Pick<HttpClientOptions, TransportKeys>
    >();
  });
});
