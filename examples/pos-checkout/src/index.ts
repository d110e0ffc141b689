// The POS checkout example: the code a POS vendor writes with @fin/authorization-client.
export { type CheckoutResult, checkout } from './checkout.js';
