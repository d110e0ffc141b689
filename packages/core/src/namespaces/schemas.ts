// The root's `schemas` namespace: a module named after it, so the declaration bundle writes `declare namespace schemas` (not `index$2`).
export * from '../schemas/index.js';
