// docs/server-kit.md stays true: its magic-value table is exactly sandboxTaxIds, and its R-11 defaults are the code's.
import { readFileSync } from 'node:fs';
import { defaultLimits, defaultProposalReusePolicy, sandboxTaxIds } from '@fin/server-kit';
import { describe, expect, it } from 'vitest';

const doc = readFileSync(new URL('./server-kit.md', import.meta.url), 'utf8');

describe('docs/server-kit.md', () => {
  it('lists every magic CPF of sandboxTaxIds with its decline reason, and no other', () => {
    const rows = [...doc.matchAll(/^\| `(\d{11})` \| (.+) \|$/gm)].map(([, taxId, outcome]) => ({
      taxId,
      outcome,
    }));
    expect(rows.map((row) => row.taxId).sort()).toEqual(Object.keys(sandboxTaxIds).sort());
    for (const { taxId, outcome } of rows) {
      const rule = sandboxTaxIds[taxId as keyof typeof sandboxTaxIds];
      if ('declineReason' in rule) expect(outcome).toContain(rule.declineReason);
    }
  });

  it('states the defaults the code has', () => {
    const { windowDays, ceiling, limit, timeZone } = defaultProposalReusePolicy;
    expect(doc).toContain(
      `{ windowDays: ${windowDays}, ceiling: ${ceiling}, limit: ${limit}, timeZone: '${timeZone}' }`,
    );
    expect(doc).toContain(`\`writesPerMinute\` ${defaultLimits.writesPerMinute}`);
    expect(doc).toContain(`\`readsPerMinute\` ${defaultLimits.readsPerMinute}`);
    expect(doc).toContain(`\`maxBodyBytes\` ${defaultLimits.maxBodyBytes}`);
  });
});
