// What the steps share: the demo's options, clock, servers to stop and worker watch; then, once both servers run, the stage.
import type { AuthorizationClient } from '@fin/authorization-client';
import type { RunningFinancingService } from '@fin/example-financing-service';
import type { PosClient } from '@fin/pos-client';
import type { PartnerCast } from './cast.js';
import type { DemoClock } from './demo-clock.js';
import type { DemoOptions } from './options.js';
import type { Resources } from './resources.js';
import type { DemoPartner } from './setup.js';
import type { DemoWebhookReceiver } from './webhook-receiver.js';
import type { WorkerWatch } from './worker-watch.js';

export interface Scene {
  options: DemoOptions;
  clock: DemoClock;
  resources: Resources;
  workers: WorkerWatch;
  /** The POS vendor's webhook receiver (started with the financing service). */
  webhooks: DemoWebhookReceiver;
}

/** Both servers running, and the two clients that talk to them. */
export interface Stage extends Scene {
  partner: DemoPartner;
  financing: RunningFinancingService;
  cast: PartnerCast;
  /** The POS vendor's client of the financing service (@fin/authorization-client). */
  fin: AuthorizationClient;
  /** The financing team's in-store reads of the partner POS (@fin/pos-client): seller session, barcode, IMEI. */
  pos: PosClient;
}
