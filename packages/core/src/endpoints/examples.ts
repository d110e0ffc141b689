// Example payloads shown in the documents; typed by the schemas' types, and parsed by them in the tests.
import type {
  AuthorizeRequest,
  AuthorizeResult,
  CancelRequest,
  CancelResult,
  ConfirmRequest,
  ConfirmResult,
  EmployeesPage,
  ImeiValidation,
  PlansList,
  ProductsPage,
  ProductWithStock,
  SaleSearchRequest,
  SaleSearchResult,
  SellerAuthResult,
  SellerLoginRequest,
  SellerSessionFlat,
  ServicesList,
  StockLevel,
  StoresPage,
  TokenRequest,
  TokenRequestBasic,
  TokenResponse,
} from '../schemas/index.js';
import type { NamedExample } from './endpoint.js';

const issuedAt = '2026-01-15T12:00:00.000Z';
const brl = (amount: number) => ({ amount, currency: 'BRL' as const });
const store = {
  storeId: 'LJ-0042',
  storeName: 'Loja Centro',
  storeCnpj: '12345678000195',
  storeAddress: { street: 'Rua Direita, 100, loja 3', city: 'São Paulo', state: 'SP', zipCode: '01002000' },
};
const session = {
  sellerId: 'V-1001',
  sellerName: 'Ana Souza',
  ...store,
  accessToken: 'seller-session-token',
  expiresAt: '2026-01-15T20:00:00.000Z',
};

export const tokenExamples = (scope: string) =>
  ({
    request: {
      clientSecretPost: {
        summary: 'client_secret_post: the id and secret in the form',
        value: {
          grant_type: 'client_credentials',
          client_id: 'retail-chain-01',
          client_secret: 'client-secret',
          scope,
        } satisfies TokenRequest,
      },
      clientSecretBasic: {
        summary: 'client_secret_basic: the id and secret in Authorization: Basic, the grant in the form',
        value: { grant_type: 'client_credentials', scope } satisfies TokenRequestBasic,
      },
    },
    response: {
      summary: 'A one-hour system token',
      value: {
        access_token: 'system-access-token',
        token_type: 'Bearer',
        expires_in: 3600,
        scope,
      } satisfies TokenResponse,
    },
  }) satisfies { request: Record<string, NamedExample>; response: NamedExample };

export const sellerSessionExamples = {
  byCpf: { summary: 'Shape (a): CPF and password', value: { cpf: '11144477735', password: 'secret' } },
  byUsername: {
    summary: 'Shape (b): username and password',
    value: { username: 'ana.souza', password: 'secret' },
  },
} satisfies Record<string, NamedExample & { value: SellerLoginRequest }>;

export const sellerSessionResultExamples = {
  authorized: {
    summary: 'Shape (a): login accepted',
    value: {
      authorized: true,
      status: 'AUTHORIZED',
      message: 'Login realizado.',
      session: { ...session, cpf: '11144477735', isManager: false, jobTitle: 'Vendedora' },
    } satisfies SellerAuthResult,
  },
  refused: {
    summary: 'Shape (a): login refused, still HTTP 200',
    value: {
      authorized: false,
      status: 'INVALID_PASSWORD',
      message: 'CPF ou senha inválidos.',
      session: null,
    } satisfies SellerAuthResult,
  },
  flat: {
    summary: 'Shape (b): the session directly',
    value: { ...session, taxId: '11144477735', role: 'SELLER' } satisfies SellerSessionFlat,
  },
} satisfies Record<string, NamedExample>;

/** One page holding the whole list: `totalPages` is `ceil(totalItems / pageSize)`, the page count adds up. */
const onePage = (totalItems: number) => ({ page: 1, pageSize: 50, totalItems, totalPages: 1 });

const smartphone = {
  sku: 'SM-A15-128',
  productType: 'SMARTPHONE',
  name: 'Galaxy A15 128 GB',
  brand: 'Samsung',
  model: 'A15',
  storage: '128 GB',
  price: brl(129900),
};

export const employeesExamples = {
  page: {
    summary: 'Every active employee, on one page',
    value: {
      employees: [
        {
          cpf: '11144477735',
          name: 'Ana Souza',
          storeId: 'LJ-0042',
          isManager: false,
          jobTitle: 'Vendedora',
        },
        {
          cpf: '12345678909',
          name: 'Bruno Lima',
          email: 'bruno.lima@varejo.example',
          storeId: 'LJ-0042',
          isManager: true,
          jobTitle: 'Gerente',
        },
      ],
      pagination: onePage(2),
    } satisfies EmployeesPage,
  },
} satisfies Record<string, NamedExample>;

export const storesExamples = {
  page: {
    summary: 'Every store, on one page',
    value: {
      stores: [
        { storeId: store.storeId, name: store.storeName, cnpj: store.storeCnpj, address: store.storeAddress },
        {
          storeId: 'LJ-0107',
          name: 'Loja Shopping Norte',
          cnpj: '12345678000276',
          address: {
            street: 'Av. Otaviano Alves de Lima, 4400',
            city: 'São Paulo',
            state: 'SP',
            zipCode: '02722000',
          },
        },
      ],
      pagination: onePage(2),
    } satisfies StoresPage,
  },
} satisfies Record<string, NamedExample>;

export const plansExamples = {
  plans: {
    summary: 'The plans the store sells',
    value: {
      plans: [
        { planId: 'PLANO-CONTROLE-15GB', name: 'Controle 15 GB', monthlyPrice: brl(5999) },
        { planId: 'PLANO-POS-50GB', name: 'Pós 50 GB', monthlyPrice: brl(12999) },
      ],
    } satisfies PlansList,
  },
} satisfies Record<string, NamedExample>;

export const productsExamples = {
  page: {
    summary: 'The smartphones of the plan, on one page (no stock: read it in real time)',
    value: { products: [smartphone], pagination: onePage(1) } satisfies ProductsPage,
  },
} satisfies Record<string, NamedExample>;

export const barcodeExamples = {
  accessory: {
    summary: 'An accessory found by its barcode, with current stock (R-04)',
    value: {
      sku: 'CASE-A15',
      productType: 'ACCESSORY',
      name: 'Capa Galaxy A15',
      brand: 'Samsung',
      price: brl(4990),
      stock: 12,
    } satisfies ProductWithStock,
  },
  smartphone: {
    summary: 'A smartphone found by its barcode',
    value: { ...smartphone, stock: 7 } satisfies ProductWithStock,
  },
} satisfies Record<string, NamedExample>;

export const servicesExamples = {
  services: {
    summary: 'The warranty and insurance offered with the smartphone',
    value: {
      services: [
        {
          serviceId: 'GE-12',
          name: 'Garantia estendida 12 meses',
          type: 'EXTENDED_WARRANTY',
          price: brl(19900),
        },
        {
          serviceId: 'SEG-RF-12',
          name: 'Seguro roubo e furto 12 meses',
          type: 'INSURANCE',
          price: brl(29900),
        },
      ],
    } satisfies ServicesList,
  },
} satisfies Record<string, NamedExample>;

export const stockExamples = {
  stock: {
    summary: 'Current stock of one SKU',
    value: { sku: 'SM-A15-128', storeId: 'LJ-0042', stock: 7, updatedAt: issuedAt } satisfies StockLevel,
  },
} satisfies Record<string, NamedExample>;

export const imeiExamples = {
  inStock: {
    summary: 'A valid IMEI in stock',
    value: {
      imeiValid: true,
      inStock: true,
      sku: 'SM-A15-128',
      name: 'Galaxy A15 128 GB',
      brand: 'Samsung',
      model: 'A15',
      storage: '128 GB',
      message: 'Aparelho disponível nesta loja.',
    } satisfies ImeiValidation,
  },
  notInStock: {
    summary: 'A valid IMEI this store does not hold',
    value: {
      imeiValid: true,
      inStock: false,
      message: 'Aparelho não consta no estoque desta loja. Confira o IMEI na caixa.',
    } satisfies ImeiValidation,
  },
} satisfies Record<string, NamedExample>;

export const saleSearchExamples = {
  byTaxId: { summary: 'By the customer CPF', value: { taxId: '52998224725' } },
  byImei: { summary: 'By the device IMEI', value: { imei: '490154203237518' } },
} satisfies Record<string, NamedExample & { value: SaleSearchRequest }>;

export const saleSearchResultExamples = {
  active: {
    summary: 'An invoiced sale',
    value: {
      sales: [
        {
          status: 'ACTIVE',
          saleNumber: 'V-2026-000123',
          orderNumber: 'P-88812',
          invoiceNumber: '1234',
          nfeAccessKey: '35260112345678000195550010000012341000012343',
          saleDate: issuedAt,
          cancellationDate: null,
        },
      ],
    } satisfies SaleSearchResult,
  },
} satisfies Record<string, NamedExample>;

export const authorizeExamples = {
  cart: {
    summary: 'A smartphone, a case and an extended warranty',
    value: {
      clientName: 'Maria Oliveira',
      clientTaxId: '52998224725',
      clientPhoneNumber: '11987654321',
      sellerId: 'V-1001',
      sellerTaxId: '11144477735',
      sellerName: 'Ana Souza',
      storeId: 'LJ-0042',
      planId: 'PLANO-CONTROLE-15GB',
      imei: '490154203237518',
      items: [
        {
          sku: 'SM-A15-128',
          productType: 'SMARTPHONE',
          name: 'Galaxy A15 128 GB',
          quantity: 1,
          unitPrice: brl(129900),
          totalPrice: brl(129900),
        },
        {
          sku: 'CASE-A15',
          productType: 'CASE',
          name: 'Capa Galaxy A15',
          quantity: 2,
          unitPrice: brl(4990),
          totalPrice: brl(9980),
        },
      ],
      services: [
        {
          serviceId: 'GE-12',
          type: 'EXTENDED_WARRANTY',
          name: 'Garantia estendida 12 meses',
          price: brl(19900),
        },
      ],
      totals: { productsTotal: brl(139880), servicesTotal: brl(19900), grandTotal: brl(159780) },
    } satisfies AuthorizeRequest,
  },
} satisfies Record<string, NamedExample>;

export const authorizeResultExamples = {
  approved: {
    summary: 'Authorized: the POS may invoice within 15 minutes',
    value: {
      authorized: true,
      authorizationId: 'AUT-7f3c2a9e',
      status: 'AUTHORIZED',
      expiresAt: '2026-01-15T12:15:00.000Z',
      message: 'Venda autorizada. Pode faturar.',
    } satisfies AuthorizeResult,
  },
  declined: {
    summary: 'Credit refused: HTTP 200, not an error (R-07)',
    value: {
      authorized: false,
      declineReason: 'CREDIT_DENIED',
      message: 'Crédito não aprovado para este cliente.',
    } satisfies AuthorizeResult,
  },
} satisfies Record<string, NamedExample>;

export const confirmExamples = {
  invoice: {
    summary: 'The invoice issued for the sale',
    value: {
      saleNumber: 'V-2026-000123',
      invoiceNumber: '1234',
      nfeAccessKey: '35260112345678000195550010000012341000012343',
      invoicedAt: '2026-01-15T12:05:00.000Z',
    } satisfies ConfirmRequest,
  },
} satisfies Record<string, NamedExample>;

export const confirmResultExamples = {
  confirmed: {
    summary: 'The contract is created',
    value: {
      authorizationId: 'AUT-7f3c2a9e',
      status: 'CONFIRMED',
      contractId: 'CT-000981',
      principal: { amount: 120_000, currency: 'BRL' },
      installments: [
        { number: 1, amount: { amount: 40_000, currency: 'BRL' }, dueDate: '2026-02-15' },
        { number: 2, amount: { amount: 40_000, currency: 'BRL' }, dueDate: '2026-03-15' },
        { number: 3, amount: { amount: 40_000, currency: 'BRL' }, dueDate: '2026-04-15' },
      ],
    } satisfies ConfirmResult,
  },
} satisfies Record<string, NamedExample>;

export const cancelExamples = {
  exchange: { summary: 'An exchange (R-09)', value: { reason: 'EXCHANGE' } satisfies CancelRequest },
} satisfies Record<string, NamedExample>;

export const cancelResultExamples = {
  pending: {
    summary: 'Recorded; the financing is cancelled once the sale search agrees (R-08)',
    value: {
      authorizationId: 'AUT-7f3c2a9e',
      status: 'CANCELLED',
      reason: 'EXCHANGE',
      verification: 'PENDING',
      financingCancelled: false,
    } satisfies CancelResult,
  },
} satisfies Record<string, NamedExample>;
