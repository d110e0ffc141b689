// Steps 1 and 2: the simulated partner POS and the financing service on free loopback ports, then the stage the scenes share.
import { createServer } from 'node:net';
import { AuthorizationClient } from '@fin/authorization-client';
import { magicValues } from '@fin/authorization-client/testing';
import { type RunningFinancingService, startFinancingService } from '@fin/example-financing-service';
import { type PartnerPosServer, startPartnerPos } from '@fin/example-partner-pos';
import { PosClient } from '@fin/pos-client';
import { partnerCast } from './cast.js';
import { type PartnerLogin, partnerLogin } from './partner-login.js';
import type { Scene, Stage } from './scene.js';
import { progressBar, syncProgress } from './sync-progress.js';
import type { StepContext } from './timeline.js';

/** The partner the demo simulates: the same seed, the same stores, people and phones on every run. */
export const demoPartner = {
  seed: 1,
  size: { stores: 3, productsPerStore: 300, employees: 300 },
  /** Reads a minute its contract allows: the financing service paces its clients to it. */
  readsPerMinute: 3_000,
} as const;

/** The POS vendor registered at the financing service: the sandbox's documented test_ credentials. */
export const posVendor = magicValues.credentials;

const partnerLimits = { read: demoPartner.readsPerMinute, token: 60 };

/** The partner POS and, beside it, its OpenID Provider where sellers log in (spec v2.0). */
export interface DemoPartner extends PartnerPosServer {
  oidc: NonNullable<PartnerPosServer['oidc']>;
  login: PartnerLogin;
}

export async function startPartner(step: StepContext, scene: Scene): Promise<DemoPartner> {
  const login = partnerLogin();
  scene.resources.add('seller browser', () => login.close());
  const partner = await startPartnerPos({
    seed: demoPartner.seed,
    size: demoPartner.size,
    rateLimit: { reads: demoPartner.readsPerMinute },
    clock: scene.clock,
    oidc: login.partner,
  });
  scene.resources.add('partner POS', () => partner.close());
  const { stores, sellers } = partner.sim.data;
  const products = stores.reduce((sum, store) => sum + partner.sim.data.products(store.storeId).length, 0);
  step.report(
    [
      `${partner.url} · ${stores.length} stores · ${products} products · ${sellers.length} employees`,
      `seed ${demoPartner.seed}: the same partner and data on every run`,
      `its OpenID Provider at ${partner.oidc!.issuer}: seller login page, FAPI 2.0, mutual TLS`,
    ],
    {
      url: partner.url,
      issuer: partner.oidc!.issuer,
      stores: stores.length,
      products,
      employees: sellers.length,
    },
  );
  return { ...partner, oidc: partner.oidc!, login };
}

/** A loopback address where nothing listens: connections are refused. */
async function refusingUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}`;
}

export async function startFinancing(
  step: StepContext,
  scene: Scene,
  partner: DemoPartner,
): Promise<RunningFinancingService> {
  const progress = syncProgress();
  const webhookUrl = await scene.webhooks.start();
  scene.resources.add('webhook receiver', () => scene.webhooks.close());
  const financing = await startFinancingService({
    partnerPosUrl: scene.options.fault === 'partner-pos-down' ? await refusingUrl() : partner.url,
    partnerPosCredentials: partner.sim.credentials,
    posVendor,
    clock: scene.clock,
    posClient: { rateLimit: partnerLimits },
    // Spec v2.0: sellers log in at the partner's provider; the service authenticates by its certificate.
    sellerLogin: partner.login.financing(partner.oidc.issuer),
    // The verifier looks for due notices often; the demo's clock decides when one is due.
    schedule: { 'cancellation-verifier': 50, 'stock-holds': 50, 'webhook-delivery': 50 },
    webhooks: [{ url: webhookUrl, secrets: [scene.webhooks.secret] }],
    onCatalogProgress: (page) =>
      step.progress({
        resource: page.resource,
        storeId: page.storeId ?? null,
        percent: progress(page),
        pages: page.pages,
      }),
    onWorkerRun: scene.workers.onRun,
  });
  scene.resources.add('financing service', () => financing.close());
  const { catalog } = (await financing.catalog.read(posVendor.clientId))!;
  const pages = financing.firstSync.ok ? financing.firstSync.pages : 0;
  step.report(
    [
      `${progressBar(100)}  ${pages} pages read through @fin/pos-client`,
      `${catalog.employees.length} employees · ${catalog.stores.length} stores · ${catalog.plans.length} plans · ${catalog.products.length} products · ${catalog.services.length} services`,
      `listening on ${financing.url} (${financing.storeKind} store)`,
      'workers: cancellation verifier, confirmation poller, stock holds, daily sync, expiry, webhook delivery',
    ],
    {
      url: financing.url,
      pages,
      employees: catalog.employees.length,
      products: catalog.products.length,
      services: catalog.services.length,
    },
  );
  return financing;
}

/** The two clients of the scenes: the POS vendor's, and the financing team's in-store reads of the partner. */
export function stageOf(scene: Scene, partner: DemoPartner, financing: RunningFinancingService): Stage {
  return {
    ...scene,
    partner,
    financing,
    cast: partnerCast(partner.sim),
    // A dozen writes in a few seconds: pacing them to 120 a minute would only add waits (the service still limits).
    fin: new AuthorizationClient({
      baseUrl: financing.url,
      ...posVendor,
      environment: 'sandbox',
      rateLimit: false,
    }),
    pos: new PosClient({ baseUrl: partner.url, ...partner.sim.credentials, rateLimit: partnerLimits }),
  };
}
