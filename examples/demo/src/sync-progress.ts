// How far the catalog sync is, from syncCatalog's page reports alone: employees and stores, then each store's plans and products.
import type { SyncProgress } from '@fin/pos-client';

/**
 * A tracker turning each page report into a percentage that only grows. The sync reads employees and
 * stores (one share), then each store (one share each): its plans, the products of each plan, then one
 * services call per smartphone. The number of smartphones is unknown in advance, so a store's share is
 * full once its products are read and the bar waits there during its services calls.
 */
export function syncProgress() {
  let stores = 0; // known once the stores list is read
  const storeOrder: string[] = [];
  const plansOf = new Map<string, string[]>(); // storeId -> planIds in the order read
  const planCount = new Map<string, number>();
  let people = 0; // 0..1: employees then stores
  let storeShare = 0; // 0..1 of the current store
  let best = 0;

  return (page: SyncProgress): number => {
    const done = page.page / Math.max(page.totalPages, 1);
    if (page.resource === 'employees') people = done / 2;
    else if (page.resource === 'stores') {
      people = 0.5 + done / 2;
      if (done === 1) stores = page.itemsSoFar;
    } else if (page.storeId) {
      if (!storeOrder.includes(page.storeId)) storeOrder.push(page.storeId);
      if (page.resource === 'plans') {
        planCount.set(page.storeId, page.items);
        storeShare = 0.1;
      } else if (page.resource === 'products' && page.planId) {
        const plans = plansOf.get(page.storeId) ?? [];
        if (!plans.includes(page.planId)) plans.push(page.planId);
        plansOf.set(page.storeId, plans);
        const total = Math.max(planCount.get(page.storeId) ?? plans.length, 1);
        storeShare = 0.1 + (0.9 * (plans.length - 1 + done)) / total;
      } else storeShare = 1;
    }
    const storesDone = Math.max(storeOrder.length - 1, 0) + (storeOrder.length > 0 ? storeShare : 0);
    const fraction = (people + storesDone) / (1 + Math.max(stores, storeOrder.length, 1));
    best = Math.max(best, Math.min(99, Math.floor(fraction * 100)));
    return best;
  };
}

/** `[██████░░░░░░] 50%` */
export function progressBar(percent: number, width = 24): string {
  const filled = Math.trunc((percent * width) / 100);
  return `[${'█'.repeat(filled)}${'░'.repeat(width - filled)}] ${String(percent).padStart(3)}%`;
}
