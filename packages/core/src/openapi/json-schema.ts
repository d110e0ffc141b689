// zod -> JSON Schema 2020-12 for the OpenAPI documents: named schemas become components, the rest is inlined.
import * as z from 'zod';
import * as schemas from '../schemas/index.js';
import type { JsonSchema, Reference } from './document.js';

/**
 * Every conversion documents the input side of a schema: what it accepts on the wire. The output
 * side would close every object (`additionalProperties: false`), which contradicts the tolerant
 * reader of spec section 9 for responses (docs/spec-decisions.md, D-OA-1).
 */
export const jsonSchemaOptions = { target: 'draft-2020-12', io: 'input' } as const;

export const componentRef = (id: string): string => `#/components/schemas/${id}`;

/** The id a schema carries through `.meta({ id })`, if any. */
export const schemaId = (schema: z.ZodType): string | undefined => {
  const id = z.globalRegistry.get(schema)?.id;
  return typeof id === 'string' ? id : undefined;
};

/** A `$ref` to the component of a named schema. */
export function refTo(schema: z.ZodType): Reference {
  const id = schemaId(schema);
  if (id === undefined) throw new Error('only a schema with .meta({ id }) has a component');
  return { $ref: componentRef(id) };
}

/** Every schema of `schemas.*` that carries a `.meta({ id })`, by id. */
export function namedContractSchemas(): Map<string, z.ZodType> {
  const named = new Map<string, z.ZodType>();
  for (const value of Object.values(schemas)) {
    if (!(value instanceof z.ZodType)) continue;
    const id = schemaId(value);
    if (id !== undefined) named.set(id, value);
  }
  return named;
}

/** Drops the keywords a standalone conversion adds and a component or inline schema must not carry. */
const bare = ({ $schema: _schema, $id: _id, ...rest }: JsonSchema): JsonSchema => rest;

/**
 * Converts named schemas in one pass, so each nested named schema is a `$ref` to its component.
 * Every named schema of the contract takes part, so no nested one can be left without a component.
 */
export function toComponentSchemas(extra: ReadonlyMap<string, z.ZodType>): Record<string, JsonSchema> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of [...namedContractSchemas(), ...extra]) registry.add(schema, { id });
  const converted = z.toJSONSchema(registry, { ...jsonSchemaOptions, uri: componentRef }).schemas;
  const components: Record<string, JsonSchema> = {};
  for (const [id, schema] of Object.entries(converted)) {
    if (id === '__shared') throw new Error('a named schema outside schemas.* is nested in a component');
    components[id] = bare(schema);
  }
  return components;
}

/** Converts a schema that holds no named schema (a query field, a header) to an inline JSON Schema. */
export function toInlineSchema(schema: z.ZodType): JsonSchema {
  const converted = bare(z.toJSONSchema(schema, jsonSchemaOptions));
  if (converted.$defs !== undefined || converted.$ref !== undefined) {
    throw new Error('an inline schema may not hold a named schema');
  }
  return converted;
}
