// The seeded, deterministic data set of a simulated partner POS: stores, people, catalog, devices and sales.
import {
  type Employee,
  money,
  type Plan,
  type Product,
  type SaleSearchRequest,
  type SaleStatus,
  type Service,
  type Store,
} from '@fin/core';
import { makeCnpj, makeCpf, makeImei, makeNfeKey } from './identifiers.js';
import { createRandom, type Random } from './random.js';
import {
  accessoryKinds,
  cities,
  firstNames,
  jobTitles,
  lastNames,
  planTemplates,
  serviceTemplates,
  smartphoneModels,
  storages,
} from './vocabulary.js';

/** How big the simulated partner is. */
export interface DatasetSize {
  stores: number;
  /** Catalog products of each store, smartphones and accessories, as `GET /v1/products` lists them. */
  productsPerStore: number;
  /** How many of those are smartphones (each has services and devices); default 1 in 50, at least 10. */
  smartphonesPerStore: number;
  /** Employees across all stores, assigned round robin. Every employee is also a seller who can log in. */
  employees: number;
}

export const defaultSize = (size: Partial<DatasetSize> = {}): DatasetSize => {
  const productsPerStore = size.productsPerStore ?? 300;
  return {
    stores: size.stores ?? 3,
    productsPerStore,
    smartphonesPerStore:
      size.smartphonesPerStore ?? Math.min(productsPerStore, Math.max(10, Math.ceil(productsPerStore / 50))),
    employees: size.employees ?? 300,
  };
};

/** An employee and the credentials they log in with (`cpf` or `username`, and `password`). */
export interface SimulatedSeller extends Employee {
  storeId: string;
  sellerId: string;
  username: string;
  password: string;
  role: 'SELLER' | 'SUPERVISOR' | 'MANAGER';
  isManager: boolean;
  jobTitle: string;
}

/** One product of one store's catalog: the product (no stock), its barcode, the plans listing it, its stock. */
export interface CatalogEntry {
  product: Product;
  barcode: string;
  planIds: string[];
  stock: number;
  stockUpdatedAt: string;
}

/** A handset known to the partner: its IMEI, the store and SKU, and whether it is on the shelf. */
export interface SimulatedDevice {
  imei: string;
  storeId: string;
  sku: string;
  inStock: boolean;
}

/** A sale as the partner keeps it: the public SaleStatus plus the customer CPF and store it belongs to. */
export interface SimulatedSale {
  storeId: string;
  taxId: string;
  imei: string;
  sale: SaleStatus;
}

export interface Dataset {
  stores: Store[];
  plans: Plan[];
  /** storeId -> sku -> entry, in SKU order. */
  catalog: Map<string, Map<string, CatalogEntry>>;
  /** sku -> the services sold with that smartphone. */
  services: Map<string, Service[]>;
  /** Active employees, in the order the partner lists them (`byName`). */
  sellers: SimulatedSeller[];
  devices: Map<string, SimulatedDevice>;
  sales: SimulatedSale[];
  /** Counters for numbers the simulation issues later (sale, invoice and seller numbers). */
  sequence: { sale: number; invoice: number; seller: number };
  random: Random;
  /** Every CPF drawn so far (sellers and customers), so a new one never repeats. */
  cpfs: Set<string>;
}

/** The instant seeded dates count back from, so a seed always yields the same data. */
export const datasetEpoch = new Date('2026-03-02T13:00:00.000Z');

const pad = (n: number, width: number) => String(n).padStart(width, '0');
const price = (random: Random, minReais: number, maxReais: number) =>
  money.brl(random.int(minReais, maxReais) * 100 + 90);
const ascii = (s: string) =>
  s
    .normalize('NFD')
    .replace(/[^a-zA-Z]/g, '')
    .toLowerCase();
const hoursBefore = (hours: number) => new Date(datasetEpoch.getTime() - hours * 3_600_000).toISOString();

/** Draws until `make` gives a value not yet in `seen` (CPFs must be unique across people). */
function unique(seen: Set<string>, make: () => string): string {
  let value = make();
  while (seen.has(value)) value = make();
  seen.add(value);
  return value;
}

function makeStores(random: Random, count: number): Store[] {
  return Array.from({ length: count }, (_, i) => {
    const place = cities[i % cities.length]!;
    return {
      storeId: `LJ-${pad(i + 1, 4)}`,
      name: `Loja ${place.city} ${i + 1}`,
      cnpj: makeCnpj(random),
      address: {
        street: `${place.street}, ${random.int(10, 2999)}, loja ${random.int(1, 120)}`,
        city: place.city,
        state: place.state,
        zipCode: `${random.int(10, 99)}${random.digits(6)}`,
      },
    };
  });
}

function makeProduct(random: Random, index: number, smartphone: boolean): Product {
  const { brand, model } = smartphoneModels[index % smartphoneModels.length]!;
  if (smartphone) {
    const storage = storages[index % storages.length]!;
    return {
      sku: `SM-${pad(index + 1, 6)}`,
      productType: 'SMARTPHONE',
      name: `${brand} ${model} ${storage}`,
      brand,
      model,
      storage,
      price: price(random, 899, 8999),
    };
  }
  const kind = accessoryKinds[index % accessoryKinds.length]!;
  return {
    sku: `AC-${pad(index + 1, 6)}`,
    productType: 'ACCESSORY',
    name: `${kind} ${model}`,
    brand,
    description: `${kind} compatível com ${brand} ${model}`,
    price: price(random, 19, 249),
  };
}

/** The chain's catalog: the same products in every store (stock differs); smartphones are in every plan. */
function makeCatalog(random: Random, stores: Store[], size: DatasetSize) {
  const products = Array.from({ length: size.productsPerStore }, (_, i) =>
    makeProduct(random, i, i < size.smartphonesPerStore),
  );
  const catalog = new Map<string, Map<string, CatalogEntry>>();
  for (const store of stores) {
    const entries = new Map<string, CatalogEntry>();
    products.forEach((product, i) => {
      entries.set(product.sku, {
        product,
        barcode: `789${pad(i + 1, 10)}`,
        planIds:
          product.productType === 'SMARTPHONE'
            ? planTemplates.map((plan) => plan.planId)
            : [planTemplates[i % planTemplates.length]!.planId],
        stock: random.int(0, 25),
        stockUpdatedAt: hoursBefore(random.int(1, 48)),
      });
    });
    catalog.set(store.storeId, entries);
  }
  const services = new Map<string, Service[]>(
    products
      .filter((product) => product.productType === 'SMARTPHONE')
      .map((product) => [
        product.sku,
        serviceTemplates.map((template) => ({
          serviceId: `SV-${product.sku}-${template.code}`,
          name: template.name,
          type: template.type,
          price: money.brl(template.cents),
        })),
      ]),
  );
  return { catalog, services };
}

/** The partner lists employees by name (then CPF), so a new hire can land on any page. */
export const byName = (a: SimulatedSeller, b: SimulatedSeller) =>
  a.name.localeCompare(b.name, 'pt-BR') || a.cpf.localeCompare(b.cpf);

/** Seller number `n` (1-based), working at `store`; every CPF drawn is new to the data set. */
export function makeSeller(
  dataset: Pick<Dataset, 'random' | 'cpfs'>,
  n: number,
  store: Store,
): SimulatedSeller {
  const { random } = dataset;
  const first = random.pick(firstNames);
  const last = random.pick(lastNames);
  const isManager = n % 20 === 1;
  const jobTitle = isManager ? 'Gerente de loja' : random.pick(jobTitles);
  return {
    cpf: unique(dataset.cpfs, () => makeCpf(random)),
    name: `${first} ${last}`,
    phone: `119${random.digits(8)}`,
    email: `${ascii(first)}.${ascii(last)}.${n}@lojas.example`,
    storeId: store.storeId,
    isManager,
    jobTitle,
    sellerId: `SEL-${pad(n, 6)}`,
    username: `${ascii(first)}.${ascii(last)}.${n}`,
    password: `Senha-${random.digits(6)}`,
    role: isManager ? 'MANAGER' : jobTitle.startsWith('Supervisor') ? 'SUPERVISOR' : 'SELLER',
  };
}

/** Four handsets per smartphone and store: three on the shelf, one sold (and a sale for it, in turn PENDING, ACTIVE, CANCELLED). */
function makeDevicesAndSales(dataset: Omit<Dataset, 'devices' | 'sales'>) {
  const { random, stores, catalog, cpfs } = dataset;
  const devices = new Map<string, SimulatedDevice>();
  const imeis = new Set<string>();
  const sales: SimulatedSale[] = [];
  const statuses = ['PENDING', 'ACTIVE', 'CANCELLED'] as const;
  for (const store of stores) {
    for (const { product } of catalog.get(store.storeId)!.values()) {
      if (product.productType !== 'SMARTPHONE') continue;
      const tac = `35${random.digits(6)}`;
      for (let n = 0; n < 4; n++) {
        const imei = unique(imeis, () => makeImei(random, tac));
        const device = { imei, storeId: store.storeId, sku: product.sku, inStock: n < 3 };
        devices.set(imei, device);
        if (device.inStock) continue;
        const status = statuses[sales.length % statuses.length]!;
        const saleDate = hoursBefore(24 + sales.length);
        const sale = issueSale(dataset, store, {
          imei,
          taxId: unique(cpfs, () => makeCpf(random)),
          saleDate,
        });
        if (status !== 'PENDING') invoice(dataset, store, sale.sale, {});
        if (status === 'CANCELLED') cancel(sale.sale, hoursBefore(sales.length));
        device.inStock = status === 'CANCELLED';
        sales.push(sale);
      }
    }
  }
  return { devices, sales };
}

/** A new PENDING sale (not yet invoiced), numbered from the data set's sequence. */
export function issueSale(
  dataset: Pick<Dataset, 'sequence'>,
  store: Store,
  init: { imei: string; taxId: string; saleDate: string },
): SimulatedSale {
  dataset.sequence.sale += 1;
  return {
    storeId: store.storeId,
    taxId: init.taxId,
    imei: init.imei,
    sale: {
      status: 'PENDING',
      saleNumber: `V-${pad(dataset.sequence.sale, 8)}`,
      orderNumber: `PED-${pad(dataset.sequence.sale, 8)}`,
      saleDate: init.saleDate,
      cancellationDate: null,
      imei: init.imei,
    },
  };
}

/** What an invoiced sale carries; anything not given is issued (invoice number, NF-e key of the store). */
export interface InvoiceData {
  invoiceNumber?: string;
  nfeAccessKey?: string;
  invoicedAt?: string;
}

/** Marks a sale ACTIVE with its invoice. */
export function invoice(
  dataset: Pick<Dataset, 'sequence' | 'random'>,
  store: Store,
  sale: SaleStatus,
  data: InvoiceData,
): void {
  dataset.sequence.invoice += 1;
  const number = dataset.sequence.invoice;
  const issuedAt = new Date(data.invoicedAt ?? sale.saleDate);
  sale.status = 'ACTIVE';
  sale.invoiceNumber = data.invoiceNumber ?? String(number);
  sale.nfeAccessKey = data.nfeAccessKey ?? makeNfeKey(dataset.random, store.cnpj, issuedAt, number);
  sale.cancellationDate = null;
}

/** Marks a sale CANCELLED at `at`; its invoice data stays, as a cancelled NF-e keeps its key. */
export function cancel(sale: SaleStatus, at: string): void {
  sale.status = 'CANCELLED';
  sale.cancellationDate = at;
}

/** The public Employee record of a seller (what `GET /v1/employees` lists): the credentials left out. */
export function employeeOf(seller: SimulatedSeller): Employee {
  const { sellerId, username, password, role, ...employee } = seller;
  return employee;
}

/** Sales of a customer CPF or of an IMEI, most recent first, as copies the caller may keep. */
export const findSales = (dataset: Pick<Dataset, 'sales'>, criteria: SaleSearchRequest): SaleStatus[] =>
  dataset.sales
    .filter((record) =>
      'taxId' in criteria ? record.taxId === criteria.taxId : record.imei === criteria.imei,
    )
    .map((record) => structuredClone(record.sale))
    .sort((a, b) => b.saleDate.localeCompare(a.saleDate));

export function createDataset(seed: number, size: DatasetSize): Dataset {
  const random = createRandom(seed);
  const cpfs = new Set<string>();
  const stores = makeStores(random, size.stores);
  const plans: Plan[] = planTemplates.map((plan) => ({
    planId: plan.planId,
    name: plan.name,
    monthlyPrice: money.brl(plan.cents),
  }));
  const { catalog, services } = makeCatalog(random, stores, size);
  const people = { random, cpfs };
  const sellers = Array.from({ length: size.employees }, (_, i) =>
    makeSeller(people, i + 1, stores[i % stores.length]!),
  );
  const base = {
    stores,
    plans,
    catalog,
    services,
    sellers,
    sequence: { sale: 0, invoice: 0, seller: size.employees },
    random,
    cpfs,
  };
  return { ...base, ...makeDevicesAndSales(base) };
}
