// The demo's steps, in the order they run: number, id (stable, for tools reading --json) and title.

export const steps = [
  { id: 'partner-pos', title: 'Partner POS starts (simulated, on loopback)' },
  { id: 'catalog-sync', title: 'Financing service syncs the catalog, starts' },
  { id: 'seller-login', title: 'Seller logs in at the POS' },
  { id: 'barcode-lookup', title: 'Seller scans the phone’s barcode' },
  { id: 'imei-lookup', title: 'Seller reads the phone’s IMEI' },
  { id: 'device-hold', title: 'Financing service holds the phone at the POS' },
  { id: 'credit-proposal', title: 'Credit proposal approved for the customer' },
  { id: 'authorize', title: 'POS asks to authorize the financed sale' },
  { id: 'confirm', title: 'POS invoices and confirms: contract created' },
  { id: 'contract-webhook', title: 'POS receives the signed contract.created webhook' },
  { id: 'hold-committed', title: 'The hold, committed at invoicing' },
  { id: 'declined-hold', title: 'The next customer’s phone held' },
  { id: 'declined', title: 'A customer the credit analysis declines' },
  { id: 'hold-released', title: 'Credit declined: the hold released' },
  { id: 'total-mismatch', title: 'A cart whose total does not match' },
  { id: 'exchange', title: 'An exchange: cancel, verify, new phone' },
  { id: 'contradicted-cancellation', title: 'A cancellation the sale search contradicts' },
] as const;

export type StepId = (typeof steps)[number]['id'];

/** The step's number (1-based) and title. */
export function stepInfo(id: StepId): { step: number; title: string } {
  const index = steps.findIndex((step) => step.id === id);
  return { step: index + 1, title: steps[index]!.title };
}
