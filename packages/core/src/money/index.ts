// The `money` namespace: BRL amounts in integer cents, from construction to pt-BR text.
export { allocate } from './allocate.js';
export { add, brl, compare, equals, multiply, subtract, sum } from './arithmetic.js';
export { format } from './format.js';
export { parse } from './parse.js';
