// The OpenAPI document of the Sales Authorization API (spec section 4), built from its entries of the registry.
import { salesAuthorizationEndpoints } from '../endpoints/sales-authorization.js';
import { buildOpenApiDocument } from './build-document.js';
import { conventions } from './conventions.js';
import type { OpenApiDocument } from './document.js';
import { contractStatusWebhooks, webhooksTag } from './webhooks.js';

/** The OpenAPI 3.1 document of the Sales Authorization API, generated from the zod schemas and the error catalog. */
export function buildSalesAuthorizationOpenApi(): OpenApiDocument {
  return buildOpenApiDocument({
    title: 'Sales Authorization API',
    summary: 'Implemented by the financing service, called by the partner POS.',
    description:
      'The partner POS asks the financing service to authorize a financed smartphone sale, then confirms ' +
      'its invoicing or notifies its cancellation. Credit refusals are answers, not errors.\n' +
      conventions,
    server: { default: 'https://financing.example.com', description: 'The financing service (host root).' },
    scopes: ['sales:authorize'],
    tags: [
      { name: 'System token', description: 'The application token (system layer).' },
      { name: 'Sales authorization', description: 'Authorize, confirm and cancel a financed sale.' },
      webhooksTag,
    ],
    endpoints: salesAuthorizationEndpoints,
    webhooks: contractStatusWebhooks,
  });
}
