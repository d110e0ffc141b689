// The subset of OpenAPI 3.1 types our generated documents use; JSON Schemas come from zod's own types.
import type * as z from 'zod';

export type JsonSchema = z.core.JSONSchema.BaseSchema;

/** `x-` extension fields, allowed on most OpenAPI objects. */
export type Extensions = { [key: `x-${string}`]: unknown };

export interface Reference {
  $ref: string;
  summary?: string;
  description?: string;
}

export interface ExampleObject {
  summary?: string;
  description?: string;
  value: unknown;
}

export interface HeaderObject {
  description?: string;
  required?: boolean;
  schema: JsonSchema;
  /** What a mock server (Prism) answers, and what a reader sees. */
  example?: unknown;
}

export interface ParameterObject {
  name: string;
  in: 'query' | 'header' | 'path';
  description?: string;
  required?: boolean;
  schema: JsonSchema;
  example?: unknown;
}

export interface MediaTypeObject {
  schema: JsonSchema | Reference;
  example?: unknown;
  examples?: Record<string, ExampleObject | Reference>;
}

export interface RequestBodyObject {
  description?: string;
  required: boolean;
  content: Record<string, MediaTypeObject>;
}

export interface ResponseObject {
  description: string;
  headers?: Record<string, HeaderObject | Reference>;
  content?: Record<string, MediaTypeObject>;
}

export type SecurityRequirement = Record<string, string[]>;

export interface OperationObject extends Extensions {
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  security: SecurityRequirement[];
  parameters: (ParameterObject | Reference)[];
  requestBody?: RequestBodyObject;
  /** Kept for its callers until their sunset; the description says what replaces it. */
  deprecated?: true;
  responses: Record<string, ResponseObject>;
}

export type PathItemObject = Partial<Record<'get' | 'post', OperationObject>>;

export interface OAuth2SecurityScheme {
  type: 'oauth2';
  description: string;
  flows: { clientCredentials: { tokenUrl: string; scopes: Record<string, string> } };
}

export interface HttpSecurityScheme {
  type: 'http';
  scheme: 'basic';
  description: string;
}

/** OpenID Connect discovery (OpenAPI 3.1): the partner's provider for the v2.0 seller login. */
export interface OpenIdConnectSecurityScheme {
  type: 'openIdConnect';
  description: string;
  openIdConnectUrl: string;
}

export type SecurityScheme = OAuth2SecurityScheme | HttpSecurityScheme | OpenIdConnectSecurityScheme;

export interface OpenApiDocument extends Extensions {
  openapi: '3.1.1';
  info: {
    title: string;
    version: string;
    summary?: string;
    description: string;
    contact: { name: string; url: string };
    license: { name: string; identifier: string };
  };
  servers: {
    url: string;
    description?: string;
    variables?: Record<string, { default: string; description?: string }>;
  }[];
  tags: { name: string; description: string }[];
  paths: Record<string, PathItemObject>;
  /** Requests the API sends (OpenAPI 3.1 `webhooks`), by event type. */
  webhooks?: Record<string, PathItemObject>;
  components: {
    schemas: Record<string, JsonSchema>;
    parameters: Record<string, ParameterObject>;
    headers: Record<string, HeaderObject>;
    examples: Record<string, ExampleObject>;
    securitySchemes: Record<string, SecurityScheme>;
  };
}
