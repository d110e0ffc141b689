// The demo's journey: every step in order, each fed by what the earlier ones produced.
import { contradicted, exchange } from './cancellation-steps.js';
import { declinedHold, deviceHold, holdCommitted, holdReleased } from './hold-steps.js';
import { declined, totalMismatch } from './refusal-steps.js';
import { authorizeAndConfirm, barcodeLookup, creditProposal, imeiLookup, sellerLogin } from './sale-steps.js';
import type { Scene } from './scene.js';
import { stageOf, startFinancing, startPartner } from './setup.js';
import type { Timeline } from './timeline.js';
import { contractWebhook } from './webhook-steps.js';

export async function runJourney(timeline: Timeline, scene: Scene): Promise<void> {
  const partner = await timeline.run('partner-pos', (step) => startPartner(step, scene));
  const financing = await timeline.run('catalog-sync', (step) => startFinancing(step, scene, partner));
  const stage = stageOf(scene, partner, financing);
  const session = await timeline.run('seller-login', (step) => sellerLogin(step, stage));
  await timeline.run('barcode-lookup', (step) => barcodeLookup(step, stage, session));
  await timeline.run('imei-lookup', (step) => imeiLookup(step, stage, session));
  const hold = await timeline.run('device-hold', (step) => deviceHold(step, stage, session));
  const order = await timeline.run('credit-proposal', (step) => creditProposal(step, stage, session, hold));
  const first = await authorizeAndConfirm(timeline, stage, order);
  await timeline.run('contract-webhook', (step) => contractWebhook(step, stage, first));
  await timeline.run('hold-committed', (step) => holdCommitted(step, stage, hold));
  const declinedPhone = await timeline.run('declined-hold', (step) => declinedHold(step, stage, session));
  await timeline.run('declined', (step) => declined(step, stage, session));
  await timeline.run('hold-released', (step) => holdReleased(step, stage, declinedPhone));
  await timeline.run('total-mismatch', (step) => totalMismatch(step, stage, session));
  await timeline.run('exchange', (step) => exchange(step, stage, session, first));
  await timeline.run('contradicted-cancellation', (step) => contradicted(step, stage, session));
}
