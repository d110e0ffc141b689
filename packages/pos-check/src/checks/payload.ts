// Every successful answer's `data` matches the registry's response schema; unknown fields are tolerated, Money is the money check's.
import { endpoints, schemas } from '@fin/core';
import type { z } from 'zod';

import { type Check, issuesText, successData } from '../check.js';
import { answers, perEndpoint } from './observed.js';

/** The schema a reader applies: the registry's, with the stock count under either name (DESIGN 8; the stock check reports it). */
const schemaOf = (operation: keyof endpoints.PartnerPosEndpoints): z.ZodType =>
  operation === 'getStock' ? schemas.partnerStockLevel : endpoints.partnerPos[operation].response.schema;

/** Issues inside an amount or currency belong to the money check. */
const notMoney = (issue: z.core.$ZodIssue) => !['amount', 'currency'].includes(String(issue.path.at(-1)));

export const payload: Check = {
  id: 'payload',
  title: 'Payloads match the contract (unknown fields ignored)',
  run({ probe, violation }) {
    const problems = perEndpoint();
    for (const exchange of answers(probe.exchanges, false)) {
      const data = successData(exchange);
      if (data === undefined) continue; // not a success envelope: the envelope and endpoint checks say so
      const parsed = schemaOf(exchange.operation).safeParse(data);
      if (parsed.success) continue;
      const issues = parsed.error.issues.filter(notMoney);
      if (issues.length > 0)
        problems.add(exchange.endpoint, issuesText({ ...parsed.error, issues } as z.ZodError));
    }
    problems.report((endpoint, summary) =>
      violation(
        endpoint,
        `data does not match the contract: ${summary}`,
        'answer the fields of docs/openapi/partner-pos.json for this endpoint (required fields, types, patterns such as 14-digit CNPJ without mask)',
      ),
    );
  },
};
