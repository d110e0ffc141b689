// maskSecretValues (issue 24 §8): a known secret is masked as a whole token, never as a substring of a word.
import { maskSecretValues, redactText } from '@fin/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

describe('maskSecretValues: secrets as whole tokens', () => {
  it('a short secret inside ordinary words is left alone (no "[REDACTED]artner")', () => {
    expect(maskSecretValues('the partner answered', ['p'])).toBe('the partner answered');
    expect(maskSecretValues('client_secret=p&scope=x', ['p'])).toBe('client_secret=[REDACTED]&scope=x');
  });

  it('a secret standing alone is masked wherever it is quoted: JSON, forms, sentences, with redactText after', () => {
    const secret = 's3cr3t-Value';
    const text = `{"client_secret":"${secret}"} secret=${secret}; wrong secret ${secret}. Bearer abc`;
    const masked = redactText(maskSecretValues(text, [secret, '']));
    expect(masked).not.toContain(secret);
    expect(masked).toContain('secret=[REDACTED]; wrong secret [REDACTED]. Bearer [REDACTED]');
  });

  it('property: delimited occurrences never survive; text without the secret as a token is unchanged', () => {
    const word = fc.string({
      unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789'),
      minLength: 1,
      maxLength: 12,
    });
    const delimiter = fc.constantFrom(' ', '=', '&', '"', ':', '.', ',', '\n', '/');
    fc.assert(
      fc.property(word, fc.array(fc.tuple(word, delimiter), { maxLength: 8 }), (secret, parts) => {
        const text = parts.map(([w, d]) => `${w}${d}`).join('');
        const withSecret = `${text}${secret} ${secret}`;
        const masked = maskSecretValues(withSecret, [secret]);
        const tokens = masked.split(/[^a-z0-9[\]A-Z]+/u);
        expect(tokens).not.toContain(secret);
        if (!text.split(/[^a-z0-9]+/).includes(secret)) expect(maskSecretValues(text, [secret])).toBe(text);
      }),
    );
  });
});
