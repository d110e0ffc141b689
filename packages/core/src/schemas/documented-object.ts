// z.object and z.strictObject typed by the shape as written, so each field's TSDoc reaches the published .d.ts.
import * as z from 'zod';

/**
 * `z.object(shape)`, typed `ZodObject<typeof shape>`. zod types it through a mapped type (`Writeable<shape>`) whose
 * fields have no declaration of their own, so TypeScript's declaration emit drops their TSDoc; with the shape as
 * written, each field's TSDoc is what an editor shows on hover, read from the published `.d.ts` (TD-1).
 */
export const documentedObject = <Shape extends z.core.$ZodLooseShape>(shape: Shape) =>
  z.object(shape) as z.ZodObject<Shape, z.core.$strip>;

/** `z.strictObject(shape)` (unknown fields refused), typed by the shape as written like `documentedObject`. */
export const documentedStrictObject = <Shape extends z.core.$ZodLooseShape>(shape: Shape) =>
  z.strictObject(shape) as z.ZodObject<Shape, z.core.$strict>;
