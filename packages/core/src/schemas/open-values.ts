// Fields whose values the spec lists but keeps open: the listed values autocomplete, any other string still parses.
import type * as z from 'zod';

/**
 * `schema`, unchanged at run time (it accepts what it accepted), typed `Known | (string & {})`: an editor offers
 * the listed values (where `Known | string` would collapse to `string`) and any other string still type-checks.
 * For a field a reader takes as it comes (a partner's catalog, a value spec section 9.2 lets grow) (TD-2).
 */
export const openValues = <Known extends string>(schema: z.ZodType<string, string>) =>
  schema as z.ZodType<Known | (string & {}), Known | (string & {})>;
