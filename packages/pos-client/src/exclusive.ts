// `Only<T, U>`: a T that may not carry U's own keys, so `{ taxId } | { imei }` refuses an object with both.

/** `T`, with every key of `U` that `T` lacks forbidden; union two of them for "exactly one of". */
export type Only<T, U> = T & { [K in Exclude<keyof U, keyof T>]?: never };

/** The one key of `keys` present (not undefined) in `value`, or undefined when none or several are. */
export function exactlyOne<K extends string>(value: object, keys: readonly K[]): K | undefined {
  const present = keys.filter((key) => (value as Record<string, unknown>)[key] !== undefined);
  return present.length === 1 ? present[0] : undefined;
}
