// OpenAPI 3.1 documents of both APIs and the error catalog page, generated from the contract.
export type {
  HttpSecurityScheme,
  JsonSchema,
  OAuth2SecurityScheme,
  OpenApiDocument,
  OpenIdConnectSecurityScheme,
  SecurityScheme,
} from './document.js';
export { renderErrorCatalogMarkdown } from './error-catalog-markdown.js';
export { buildPartnerPosOpenApi } from './partner-pos.js';
export { buildSalesAuthorizationOpenApi } from './sales-authorization.js';
