// The secret guard itself: it must see a secret in clear, in any of its written forms, and never repeat it.
import { describe, expect, it } from 'vitest';
import { findLeaks, type SecretKind } from './support/secret-guard.js';

const secrets = new Map<string, SecretKind>([
  ['52998224725', 'cpf'],
  ['490154203237518', 'imei'],
  ['tok_abcdefghijklmnop', 'token'],
]);

describe('secret guard (spec §1: logs mask CPF, IMEI and credentials)', () => {
  it('finds a CPF written bare or with its punctuation, an IMEI and a token, naming kind and channel only', () => {
    const leaks = findLeaks(
      [
        { channel: 'logger.info', text: '{"clientTaxId":"529.982.247-25"}' },
        { channel: 'stderr', text: 'imei=490154203237518 authorization: Bearer tok_abcdefghijklmnop' },
      ],
      secrets,
    );
    expect(leaks).toEqual([
      { kind: 'cpf', channel: 'logger.info' },
      { kind: 'imei', channel: 'stderr' },
      { kind: 'token', channel: 'stderr' },
    ]);
    expect(JSON.stringify(leaks)).not.toContain('52998224725');
  });

  it('accepts the masked forms the SDKs write', () => {
    const leaks = findLeaks(
      [
        {
          channel: 'logger.info',
          text: '{"clientTaxId":"***.982.247-**","imei":"***********7518","token":"[REDACTED]"}',
        },
      ],
      secrets,
    );
    expect(leaks).toEqual([]);
  });
});
