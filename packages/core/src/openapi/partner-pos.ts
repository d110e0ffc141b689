// The OpenAPI document of the Partner POS API (spec section 4), built from its entries of the endpoint registry.
import { partnerPosEndpoints } from '../endpoints/partner-pos.js';
import { buildOpenApiDocument } from './build-document.js';
import { conventions } from './conventions.js';
import type { OpenApiDocument } from './document.js';
import { sellerLoginScheme, sellerLoginSchemeName } from './seller-login.js';

/** The OpenAPI 3.1 document of the Partner POS API, generated from the zod schemas and the error catalog. */
export function buildPartnerPosOpenApi(): OpenApiDocument {
  return buildOpenApiDocument({
    title: 'Partner POS API',
    summary: "Implemented by the retailer's point of sale, called by the financing service.",
    description:
      'The financing service reads the partner POS through this API: system token, seller session and ' +
      'store context, the catalog it synchronizes once a day (employees, stores, plans, products, services), ' +
      'and what it needs in real time (barcode, stock, IMEI, sale search).\n\n' +
      "v2.0 replaces credential passthrough: the seller logs in at the partner POS's own OpenID Provider " +
      '(the `sellerLogin` security scheme: FAPI 2.0, PAR, PKCE S256, mutual TLS or `private_key_jwt`), and ' +
      '`POST /v1/sellers/session` is deprecated, kept for v1 partners at least 12 months after the ' +
      'deprecation notice (spec 9.4).\n' +
      conventions,
    server: { default: 'https://pos.example.com', description: 'The partner POS (host root).' },
    scopes: ['catalog:read', 'inventory:read', 'sales:read'],
    tags: [
      { name: 'System token', description: 'The application token (system layer).' },
      {
        name: 'Seller session',
        description:
          'The seller and their store (seller layer). v1 only: in v2.0 the seller logs in at the partner ' +
          "POS's OpenID Provider (`sellerLogin`), and the ID token carries the session.",
      },
      { name: 'Catalog', description: 'Synchronized about once a day, never called per transaction.' },
      { name: 'Real time', description: 'Called during a sale.' },
      {
        name: 'Stock reservation',
        description:
          'v1.1, optional per partner: short holds between IMEI validation and invoicing, never part of an ' +
          'authorization. A partner without them answers 404 or 501 on `POST /v1/stock/reservations`.',
      },
    ],
    endpoints: partnerPosEndpoints,
    securitySchemes: { [sellerLoginSchemeName]: sellerLoginScheme },
  });
}
