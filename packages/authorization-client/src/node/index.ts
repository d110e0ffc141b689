// @fin/authorization-client/node: the webhook receiver for node:http (and Express), off the root (DESIGN 29).
export { createNodeWebhookHandler } from '../webhooks/node-handler.js';
