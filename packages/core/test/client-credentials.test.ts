// RFC 6749 2.3: client authentication at the token endpoint, by HTTP Basic or by the form, never both.
import { endpoints } from '@fin/core';
import { describe, expect, test } from 'vitest';

const basic = (id: string, secret: string) =>
  `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;

describe('endpoints.clientCredentialsOf', () => {
  test('client_secret_post: id and secret come from the form', () => {
    const form = new URLSearchParams({ client_id: 'pos-1', client_secret: 's3cret' });
    expect(endpoints.clientCredentialsOf(null, form)).toEqual({
      ok: true,
      method: 'client_secret_post',
      clientId: 'pos-1',
      clientSecret: 's3cret',
    });
  });

  test('RFC 6749 2.3.1: Basic carries form-urlencoded id and secret, so ":" "+" "%" and non-ASCII survive', () => {
    const secret = 'a:b+c %d/é';
    const outcome = endpoints.clientCredentialsOf(basic('pos 1', secret), new URLSearchParams());
    expect(outcome).toEqual({
      ok: true,
      method: 'client_secret_basic',
      clientId: 'pos 1',
      clientSecret: secret,
    });
  });

  test('Basic with the same client_id in the form is one method; a client_secret beside it is two', () => {
    const header = basic('pos-1', 'x');
    expect(endpoints.clientCredentialsOf(header, new URLSearchParams({ client_id: 'pos-1' })).ok).toBe(true);
    for (const form of [[['client_secret', 'x']], [['client_id', 'pos-2']]]) {
      const outcome = endpoints.clientCredentialsOf(header, new URLSearchParams(form));
      expect(outcome).toEqual({
        ok: false,
        description: expect.stringContaining('one client authentication'),
      });
    }
  });

  test('a Basic header that is not base64 of id:secret is refused, never read as the form', () => {
    const form = new URLSearchParams({ client_id: 'pos-1', client_secret: 'x' });
    for (const header of ['Basic', 'Basic !!!', `Basic ${btoa('no-colon')}`, `Basic ${btoa('%E0:x')}`]) {
      expect(endpoints.clientCredentialsOf(header, form).ok).toBe(false);
    }
  });

  test('an Authorization header of another scheme authenticates nothing: the form decides', () => {
    const form = new URLSearchParams({ client_id: 'pos-1', client_secret: 'x' });
    expect(endpoints.clientCredentialsOf('Bearer abc', form)).toMatchObject({ ok: true, clientId: 'pos-1' });
  });
});
