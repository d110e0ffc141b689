// The simulated partner POS as a loopback HTTP server, for the demo and tools.

export { toNodeListener } from './node-listener.js';
export { type PartnerPosServer, type PartnerPosTls, startPartnerPos } from './server.js';
