// The documents generated from the @fin/core contract, each with the repository path it is committed at.
import {
  buildPartnerPosOpenApi,
  buildSalesAuthorizationOpenApi,
  renderErrorCatalogMarkdown,
} from '@fin/core/openapi';
import { apiReferencePages } from './api-reference.js';

export interface GeneratedDoc {
  /** Relative to the repository root. */
  path: string;
  render: () => string;
}

const json = (document: unknown) => `${JSON.stringify(document, null, 2)}\n`;

export const generatedDocs: readonly GeneratedDoc[] = [
  { path: 'docs/openapi/partner-pos.json', render: () => json(buildPartnerPosOpenApi()) },
  { path: 'docs/openapi/sales-authorization.json', render: () => json(buildSalesAuthorizationOpenApi()) },
  { path: 'docs/errors.md', render: renderErrorCatalogMarkdown },
  ...apiReferencePages,
];
