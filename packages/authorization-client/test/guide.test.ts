// docs/authorization-client.md tells the POS what to do about every code of the error catalog.
import { readFileSync } from 'node:fs';
import { errorCodes } from '@fin/core';
import { describe, expect, it } from 'vitest';

const guide = readFileSync(new URL('../../../docs/authorization-client.md', import.meta.url), 'utf8');
const actionTable = guide.slice(
  guide.indexOf('## Errors and what the POS should do'),
  guide.indexOf('## Testing'),
);

describe('POS vendor guide', () => {
  it.each(errorCodes)('says what to do about %s', (code) => {
    expect(actionTable).toContain(`\`${code}\``);
  });

  it('links the generated error catalog', () => {
    expect(guide).toContain('](errors.md)');
  });
});
