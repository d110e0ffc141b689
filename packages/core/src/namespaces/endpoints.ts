// The root's `endpoints` namespace: a module named after it, so the declaration bundle writes `declare namespace endpoints` (not `index$1`).
export * from '../endpoints/index.js';
