// Test helpers for users of @fin/pos-client: a simulated partner POS, as msw handlers or a plain fetch handler.
export type { SimulatedClient } from './auth.js';
export { type ContractBreak, contractBreaks } from './contract-breaks.js';
export {
  type CatalogControls,
  defaultPartnerVariants,
  type EmployeeControls,
  type PartnerControls,
  type PartnerVariants,
  type SaleControls,
  type SaleRef,
} from './controls.js';
export type {
  CatalogEntry,
  DatasetSize,
  InvoiceData,
  SimulatedDevice,
  SimulatedSale,
  SimulatedSeller,
} from './data/dataset.js';
export { type PosEndpoint, posEndpoints } from './endpoints.js';
export type { FaultControls } from './faults.js';
export { simulatedPosHandlers, simulatedSellerLoginHandlers } from './msw.js';
export type { RequestLog, RequestRecord } from './request-log.js';
export type { LoginShape } from './routes/exchange.js';
export {
  createSimulatedSellerLogin,
  type IdTokenTweak,
  type SimulatedSellerLogin,
  type SimulatedSellerLoginOptions,
} from './seller-login/simulated-seller-login.js';
export {
  createSimulatedPos,
  defaultSimulatedClient,
  type SimulatedData,
  type SimulatedPos,
  type SimulatedPosOptions,
} from './simulated-pos.js';
