// The root's `money` namespace: a module named after it, so the declaration bundle writes `declare namespace money` (not `index`).
export * from '../money/index.js';
