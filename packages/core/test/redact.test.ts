// Logs never carry credentials, and CPF, IMEI and phone numbers only masked (spec section 4: "logs must mask CPF, IMEI and credentials").
import { FinApiError, redact, redactText } from '@fin/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import vectors from './vectors/identifiers.json' with { type: 'json' };

const [cpf = '', otherCpf = ''] = vectors.cpf.valid;
const [imei = ''] = vectors.imei.valid;

describe('redact: credentials are dropped', () => {
  it('removes passwords, client secrets, tokens, Authorization and cookies under any spelling', () => {
    const input = {
      password: 'hunter2',
      Password: 'hunter2',
      sellerPassword: 'hunter2',
      client_secret: 's3cr3t',
      clientSecret: 's3cr3t',
      secret: 's3cr3t',
      access_token: 'tok',
      accessToken: 'tok',
      refresh_token: 'tok',
      token: 'tok',
      apiKey: 'key',
      headers: { Authorization: 'Bearer tok', cookie: 'a=b', 'Set-Cookie': 'a=b', 'Idempotency-Key': 'k-1' },
      token_type: 'Bearer',
      expires_in: 3600,
      clientId: 'pos-1',
    };
    expect(redact(input)).toEqual({
      headers: { 'Idempotency-Key': 'k-1' },
      token_type: 'Bearer',
      expires_in: 3600,
      clientId: 'pos-1',
    });
  });

  it('reads Headers objects and Maps, dropping credentials there too', () => {
    const headers = new Headers({
      authorization: 'Bearer tok',
      'idempotency-key': 'k-1',
      'x-correlation-id': 'c-1',
    });
    expect(redact({ headers })).toEqual({ headers: { 'idempotency-key': 'k-1', 'x-correlation-id': 'c-1' } });
    const map = new Map<unknown, unknown>([
      ['password', 'x'],
      ['cpf', cpf],
      [1, 'one'],
    ]);
    expect(redact(map)).toEqual({ cpf: '***.' + cpf.slice(3, 6) + '.' + cpf.slice(6, 9) + '-**', 1: 'one' });
  });

  it('keeps only name, message and code of an Error, never its cause', () => {
    const cause = { password: 'hunter2', clientSecret: 's3cr3t' };
    const error = Object.assign(new Error(`login failed for ${cpf}`, { cause }), { code: 'E_LOGIN' });
    const out = redact(error);
    expect(out).toEqual({ name: 'Error', message: `login failed for ${maskedCpf(cpf)}`, code: 'E_LOGIN' });
    expect(JSON.stringify(out)).not.toContain('hunter2');
  });

  it('logs a FinApiError through its toJSON, which carries no headers, cause or stack', () => {
    const error = new FinApiError({
      code: 'invalid_client',
      headers: { authorization: 'Bearer tok', 'set-cookie': 'sid=abc' },
      cause: { clientSecret: 's3cr3t' },
      requestId: '7f1c0a52-3e1b-4c9f-9a2a-123456789012',
    });
    expect(Object.keys(error.toJSON())).not.toContain('headers');
    const text = JSON.stringify(redact({ error }));
    for (const secret of ['Bearer tok', 'sid=abc', 's3cr3t', 'stack']) expect(text).not.toContain(secret);
    expect(text).toContain('invalid_client');
    expect(text).toContain('7f1c0a52-3e1b-4c9f-9a2a-123456789012');
  });
});

describe('redact: personal data is masked', () => {
  it('masks CPF, IMEI and phone fields under any of their names, case-insensitive', () => {
    const out = redact({
      cpf,
      CPF: cpf,
      taxId: cpf,
      clientTaxId: cpf,
      seller_tax_id: otherCpf,
      imei,
      IMEI: imei,
      clientPhoneNumber: '+55 (11) 98765-4321',
      phone: '11987654321',
      imeis: [imei],
      storeId: 'store-1',
    });
    expect(out).toEqual({
      cpf: maskedCpf(cpf),
      CPF: maskedCpf(cpf),
      taxId: maskedCpf(cpf),
      clientTaxId: maskedCpf(cpf),
      seller_tax_id: maskedCpf(otherCpf),
      imei: `***********${imei.slice(11)}`,
      IMEI: `***********${imei.slice(11)}`,
      clientPhoneNumber: '+** (**) *****-4321',
      phone: '*******4321',
      imeis: [`***********${imei.slice(11)}`],
      storeId: 'store-1',
    });
  });

  it('stars out a value of another shape under a CPF or IMEI key', () => {
    expect(redact({ taxId: '11.222.333/0001-81', imei: '12345' })).toEqual({
      taxId: '******************',
      imei: '*****',
    });
  });

  it('masks CPFs and IMEIs in free text and URLs, keeping UUIDs and other numbers', () => {
    const formatted = `${cpf.slice(0, 3)}.${cpf.slice(3, 6)}.${cpf.slice(6, 9)}-${cpf.slice(9)}`;
    expect(redactText(`client ${formatted} bought ${imei}; order 12345`)).toBe(
      `client ${maskedCpf(cpf)} bought ***********${imei.slice(11)}; order 12345`,
    );
    expect(redactText(`GET https://pos.example/v1/imei/validate?storeId=s1&imei=${imei}`)).toBe(
      `GET https://pos.example/v1/imei/validate?storeId=s1&imei=***********${imei.slice(11)}`,
    );
    expect(redactText('imei 35-209900-176148-1')).toBe('imei **-******-***148-1');
    const requestId = '12345678-1234-4234-8234-123456789012';
    expect(redactText(`request ${requestId}`)).toBe(`request ${requestId}`);
    expect(redactText('at 1735689600000 total 199990')).toBe('at 1735689600000 total 199990');
  });

  it('drops credentials written in text: bearer tokens and secret=value pairs', () => {
    expect(redactText('Authorization: Bearer eyJhbGciOi.x.y')).toBe('Authorization: Bearer [REDACTED]');
    expect(redactText('grant_type=client_credentials&client_secret=s3cr3t&scope=a')).toBe(
      'grant_type=client_credentials&client_secret=[REDACTED]&scope=a',
    );
    expect(redactText('{"cpf":"x","password":"hunter2"}')).toBe('{"cpf":"x","password":[REDACTED]}');
  });
});

describe('redact: a copy, whatever the input', () => {
  it('never mutates the input and copies Dates, Sets, URLs and Arrays as plain data', () => {
    const input = {
      at: new Date('2026-07-01T12:00:00.000Z'),
      tags: new Set(['a']),
      url: new URL(`https://x.example/search?cpf=${cpf}`),
      list: [{ password: 'x', ok: true }],
      big: 10n,
      fn: () => 1,
      missing: undefined,
    };
    const snapshot = () =>
      JSON.stringify(input, (_key, v) => (v instanceof Set ? [...v] : typeof v === 'bigint' ? `${v}n` : v));
    const before = snapshot();
    const out = redact(input);
    expect(out).toEqual({
      at: '2026-07-01T12:00:00.000Z',
      tags: ['a'],
      url: `https://x.example/search?cpf=${maskedCpf(cpf)}`,
      list: [{ ok: true }],
      big: '10',
    });
    expect(snapshot()).toBe(before);
    expect(input.list[0]).toHaveProperty('password', 'x');
  });

  it('keeps a __proto__ key of parsed JSON as data', () => {
    const out = redact(JSON.parse('{"__proto__": {"cpf": "52998224725"}, "a": 1}'));
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(JSON.stringify(out)).toBe('{"__proto__":{"cpf":"***.982.247-**"},"a":1}');
  });

  it('handles cycles, and shared references that are not cycles', () => {
    const shared = { cpf };
    const node: Record<string, unknown> = { name: 'root', a: shared, b: shared };
    node.self = node;
    expect(redact(node)).toEqual({
      name: 'root',
      a: { cpf: maskedCpf(cpf) },
      b: { cpf: maskedCpf(cpf) },
      self: '[Circular]',
    });
  });

  it('holds no CPF, IMEI, password or secret, at any depth, under any key name, or inside text', () => {
    const digits = (n: number) =>
      fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: n, maxLength: n });
    const secretKey = fc.constantFrom(
      'password',
      'Password',
      'sellerPassword',
      'client_secret',
      'clientSecret',
      'secret',
      'access_token',
      'accessToken',
      'refresh_token',
      'token',
      'Authorization',
      'cookie',
      'set-cookie',
    );
    const secretValue = fc.string({ minLength: 12, maxLength: 30 }).map((s) => `S3CRET-${s}`);
    const leaf = fc.oneof(
      fc.record({ kind: fc.constant('cpf' as const), value: digits(11) }),
      fc.record({ kind: fc.constant('imei' as const), value: digits(15) }),
      fc.record({ kind: fc.constant('secret' as const), value: secretValue, key: secretKey }),
    );
    const plainKey = fc.string({ minLength: 1, maxLength: 8 });
    const words = fc.array(fc.constantFrom('a', 'b c', 'x:', ' ', '-', '/', '?q=', '&', 'é'), {
      maxLength: 4,
    });
    fc.assert(
      fc.property(
        leaf,
        plainKey,
        fc.array(fc.tuple(plainKey, fc.boolean()), { maxLength: 6 }),
        words,
        words,
        (secret, textKey, path, before, after) => {
          // The secret goes in free text (CPF, IMEI) or under a secret key, wrapped in objects and arrays.
          let value: unknown =
            secret.kind === 'secret'
              ? { [secret.key]: secret.value }
              : { [textKey]: `${before.join('')}${secret.value}${after.join('')}` };
          for (const [key, inArray] of path) value = inArray ? [1, value] : { [key]: value, other: 'x' };
          const json = JSON.stringify(redact(value));
          expect(json).not.toContain(secret.value);
          if (secret.kind === 'secret') expect(json).not.toContain('S3CRET');
        },
      ),
    );
  });
});

function maskedCpf(value: string) {
  return `***.${value.slice(3, 6)}.${value.slice(6, 9)}-**`;
}
