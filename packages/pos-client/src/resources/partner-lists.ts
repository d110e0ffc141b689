// The partner-wide paged lists: active employees and registered stores (the daily sync reads both whole).
import { type Employee, endpoints, type Store } from '@fin/core';
import type { ClientContext } from '../client-context.js';
import type { ListOptions, PagedList } from '../pagination/paged-list.js';
import { pagedResource } from './paged-resource.js';

export interface EmployeesResource {
  /** Active employees only: a dismissed one simply stops appearing (spec section 6). */
  list(options?: ListOptions): PagedList<Employee>;
}

export interface StoresResource {
  list(options?: ListOptions): PagedList<Store>;
}

export const employeesResource = (context: ClientContext): EmployeesResource => ({
  list: (options) =>
    pagedResource(
      context,
      {
        endpoint: endpoints.partnerPos.listEmployees,
        items: (data) => data.employees,
        key: (employee) => employee.cpf,
      },
      options,
    ),
});

export const storesResource = (context: ClientContext): StoresResource => ({
  list: (options) =>
    pagedResource(
      context,
      {
        endpoint: endpoints.partnerPos.listStores,
        items: (data) => data.stores,
        key: (store) => store.storeId,
      },
      options,
    ),
});
