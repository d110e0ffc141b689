// Paged lists: every item, page objects, limits, the last page, and a list that changes while it is read.
import { PaginationInconsistencyError } from '@fin/pos-client';
import { HttpResponse, http } from 'msw';
import { afterAll, beforeEach, describe, expect, test } from 'vitest';
import { BASE_URL, captureLog, startPartner } from './fixtures.js';

const partner = startPartner({ size: { stores: 2, productsPerStore: 40, employees: 130 } });
afterAll(partner.close);
const { sim } = partner;
beforeEach(() => sim.requests.clear());

describe('pagination', () => {
  test('list() yields every item of every page and stops on the last page pagination names', async () => {
    const pos = partner.client();
    const cpfs: string[] = [];
    for await (const employee of pos.employees.list({ pageSize: 50 })) cpfs.push(employee.cpf);
    expect(cpfs).toEqual(sim.data.sellers.map((seller) => seller.cpf));
    expect(sim.requests.count({ endpoint: 'GET /v1/employees' })).toBe(3);
  });

  test('pages() gives the page objects; the default page size is 200, the most the spec allows', async () => {
    const pos = partner.client();
    const pages = [];
    for await (const page of pos.employees.list().pages()) pages.push(page);
    expect(pages).toHaveLength(1);
    expect(pages[0]!.pagination).toEqual({ page: 1, pageSize: 200, totalItems: 130, totalPages: 1 });
    expect(pages[0]!.items).toHaveLength(130);
  });

  test('toArray({ limit }) stops reading once it has enough', async () => {
    const pos = partner.client();
    const first = await pos.employees.list({ pageSize: 10 }).toArray({ limit: 25 });
    expect(first.map((employee) => employee.cpf)).toEqual(
      sim.data.sellers.slice(0, 25).map((seller) => seller.cpf),
    );
    expect(sim.requests.count({ endpoint: 'GET /v1/employees' })).toBe(3);
  });

  test('an empty list is one request and no item', async () => {
    const pos = partner.client();
    const all = sim.data.sellers.map((seller) => seller.cpf);
    sim.employees.remove(all);
    expect(await pos.employees.list().toArray()).toEqual([]);
    expect(sim.requests.count({ endpoint: 'GET /v1/employees' })).toBe(1);
    sim.employees.hire({ count: 130 });
  });

  test('a page size outside 1..200 is refused before any request', () => {
    const pos = partner.client();
    expect(() => pos.employees.list({ pageSize: 201 })).toThrow(RangeError);
    expect(() => pos.employees.list({ pageSize: 0 })).toThrow(RangeError);
    expect(sim.requests.count()).toBe(0);
  });
});

describe('a list that changes while it is read', () => {
  test('employees removed between two pages: PaginationInconsistencyError names the endpoint, no silent gap', async () => {
    const pos = partner.client();
    const list = pos.employees.list({ pageSize: 50 });
    const error = await (async () => {
      for await (const page of list.pages()) {
        if (page.pagination.page === 1) sim.employees.remove({ count: 2 });
      }
    })().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PaginationInconsistencyError);
    expect(error).toMatchObject({
      endpoint: 'GET /v1/employees',
      inconsistency: {
        page: 2,
        expectedTotal: sim.data.sellers.length + 2,
        observedTotal: sim.data.sellers.length,
      },
    });
  });

  test("onInconsistency 'warn': the read ends, repeats are skipped, and the change is in warnings and the log", async () => {
    const log = captureLog();
    const pos = partner.client({ logger: log.logger });
    const list = pos.employees.list({ pageSize: 40, onInconsistency: 'warn' });
    const cpfs: string[] = [];
    for await (const page of list.pages()) {
      cpfs.push(...page.items.map((employee) => employee.cpf));
      // New hires listed by name push later employees forward: page 2 would repeat some of page 1.
      if (page.pagination.page === 1) sim.employees.hire({ count: 5 });
    }
    expect(new Set(cpfs).size).toBe(cpfs.length);
    expect(list.warnings[0]).toMatchObject({
      endpoint: 'GET /v1/employees',
      reason: 'total-changed',
      page: 2,
    });
    expect(log.entries).toContainEqual(
      expect.objectContaining({ event: 'pagination.inconsistent', page: 2 }),
    );
  });

  test('a partner that keeps announcing one more page is read to a bounded end, never forever', async () => {
    const store = sim.data.stores[0]!;
    partner.server.use(
      http.get(`${BASE_URL}/v1/stores`, ({ request }) => {
        const page = Number(new URL(request.url).searchParams.get('page'));
        return HttpResponse.json({
          success: true,
          message: '',
          timestamp: new Date().toISOString(),
          data: {
            stores: [{ ...store, storeId: `LJ-${page}` }],
            pagination: { page, pageSize: 1, totalItems: 3, totalPages: page + 1 },
          },
          error: null,
        });
      }),
    );
    const pos = partner.client();
    const warned = pos.stores.list({ pageSize: 1, onInconsistency: 'warn' });
    const stores = await warned.toArray();
    // The cap: twice the first page count, and at least ten pages more (2 + 10).
    expect(stores.length).toBe(12);
    expect(warned.warnings.at(-1)).toMatchObject({
      reason: 'count-mismatch',
      expectedTotal: 3,
      observedTotal: 12,
    });
    await expect(pos.stores.list({ pageSize: 1 }).toArray()).rejects.toBeInstanceOf(
      PaginationInconsistencyError,
    );
    partner.server.resetHandlers();
  });
});
