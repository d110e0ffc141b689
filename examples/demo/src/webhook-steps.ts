// Step 9: the contract-created webhook arrives at the POS vendor's receiver, signed and verified (spec v1.1, issue 26).
import type { FinancedSale } from './sale-steps.js';
import type { Stage } from './scene.js';
import type { StepContext } from './timeline.js';

export async function contractWebhook(step: StepContext, stage: Stage, sale: FinancedSale): Promise<void> {
  const { authorizationId } = sale.authorization;
  // The service's delivery worker runs every 50 ms in the demo: the event is on its way already.
  const { event, webhookId } = await stage.webhooks.next(
    `contract.created for ${authorizationId}`,
    ({ event }) => event.type === 'contract.created' && event.data.authorizationId === authorizationId,
    10_000,
  );
  if (event.type !== 'contract.created') throw new Error(`expected contract.created, got ${event.type}`);
  step.report(
    [
      `POS receiver got ${event.type} ${webhookId}: Standard Webhooks signature verified`,
      `contract ${event.data.contractId} · ${event.data.status} · sequence ${event.data.sequence} · from ${event.data.source}`,
    ],
    {
      webhookId,
      type: event.type,
      contractId: event.data.contractId,
      sequence: event.data.sequence,
      source: event.data.source,
    },
  );
}
