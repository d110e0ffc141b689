// The financing service example: @fin/server-kit on node:http, wired to a partner POS, for the demo and developers.
export {
  type FinancingServiceExampleOptions,
  type RunningFinancingService,
  type SellerLoginRoutes,
  startFinancingService,
} from './financing-service.js';
export type { StoreKind } from './store.js';
export { defaultSchedule, type WorkerName, type WorkerRun, type WorkerSchedule } from './workers.js';
