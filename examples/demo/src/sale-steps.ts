// Steps 3 to 8, one financed sale: seller login, barcode and IMEI lookups, credit proposal, authorize, invoice and confirm.
import { type AuthorizationApproved, buildCart, type CartInput } from '@fin/authorization-client';
import { cpf, imei, money, type SaleStatus } from '@fin/core';
import { loginAtPartnerPage } from '@fin/example-partner-pos';
import { type CheckoutResult, checkout } from '@fin/example-pos-checkout';
import type { SellerSession } from '@fin/pos-client';
import { invoiceAtPartner, orderFor } from './cart.js';
import { customers } from './cast.js';
import { clockTime, installmentLines, invoiceKey, phoneName, who } from './format.js';
import { outcomeOf } from './outcome.js';
import type { Stage } from './scene.js';
import type { StepContext, Timeline } from './timeline.js';

/**
 * Spec v2.0: the financing service begins the login, the seller's browser goes to the partner's page and
 * types CPF and password there (played over HTTP), and the service finishes it on its callback.
 */
export async function sellerLogin(step: StepContext, stage: Stage): Promise<SellerSession> {
  const { seller } = stage.cast;
  const routes = stage.financing.sellerLogin!;
  const { url, transaction } = await routes.beginLogin({ storeId: seller.storeId });
  const { login } = stage.partner;
  const browser = { fetch: login.browserFetch, redirectUri: login.redirectUri };
  const typed = { cpf: seller.cpf, password: seller.password };
  const { callbackUrl, pageError } = await loginAtPartnerPage(url, typed, browser);
  if (!callbackUrl) throw new Error(`the partner's login page refused the seller: ${pageError}`);
  const session = await routes.completeLogin(callbackUrl, transaction);
  step.report(
    [
      `${session.sellerName} (CPF ${cpf.mask(session.taxId)}), ${session.isManager ? 'manager' : 'seller'}`,
      `typed CPF and password at the partner's page (${new URL(url).origin}); the password never passed through the financing service`,
      'PAR + PKCE S256, the service authenticated by its certificate; ID token checked (signature, nonce, store)',
      `store ${session.storeId} ${session.storeName}: every later call carries it (R-01)`,
      `session until ${clockTime(session.expiresAt)}; password and token never shown`,
    ],
    {
      seller: session.sellerName,
      storeId: session.storeId,
      loggedInAt: 'partner',
      method: 'tls_client_auth',
    },
  );
  return session;
}

export async function barcodeLookup(step: StepContext, stage: Stage, session: SellerSession): Promise<void> {
  const { barcode } = stage.cast.phones.first.entry;
  const product = await stage.pos.store(session.storeId).products.byBarcode(barcode);
  step.report(
    [
      `barcode ${barcode} → ${product.name} (${product.sku})`,
      `${money.format(product.price)} · ${product.stock} in stock, read in real time`,
    ],
    { barcode, sku: product.sku, price: money.format(product.price), stock: product.stock },
  );
}

export async function imeiLookup(step: StepContext, stage: Stage, session: SellerSession): Promise<void> {
  const phone = stage.cast.phones.first;
  const device = await stage.pos.store(session.storeId).imei.validate(phone.imei);
  if (!device.imeiValid || !device.inStock) throw new Error(`the POS refused the IMEI: ${device.message}`);
  step.report(
    [
      `IMEI ${imei.mask(phone.imei)} → ${device.name} (${device.sku})`,
      'valid and on the shelf; nothing reserved, the lookup informs (R-05)',
    ],
    { imei: imei.mask(phone.imei), sku: device.sku ?? null },
  );
}

/** The financing team's credit flow approves the whole cart (phone and a warranty) before the POS asks. */
export async function creditProposal(
  step: StepContext,
  stage: Stage,
  session: SellerSession,
  hold?: { reservationId: string },
): Promise<CartInput> {
  const phone = stage.cast.phones.first;
  const { catalog } = (await stage.financing.catalog.read(stage.financing.firstSync.partnerId))!;
  const warranty = catalog.services.find(
    (service) => service.storeId === session.storeId && service.sku === phone.entry.product.sku,
  );
  const order = orderFor(session, customers.buyer, phone, { services: warranty ? [warranty] : [] });
  const amount = buildCart(order).totals.grandTotal;
  const proposal = await stage.financing.service.proposals.approve({
    clientTaxId: customers.buyer.taxId,
    storeId: session.storeId,
    amount,
    installments: 12,
    // Issue 30: the phone's hold now follows this proposal (extended once authorized, released if not).
    ...(hold ? { hold } : {}),
  });
  step.report(
    [
      `for ${who(customers.buyer)}`,
      `cart: ${phone.entry.product.name}${warranty ? ` + ${warranty.name}` : ''}`,
      `proposal ${proposal.proposalId}`,
      `${money.format(amount)} in ${proposal.installments} installments (service.proposals.approve)`,
      ...(proposal.hold ? [`hold ${proposal.hold.reservationId} linked to the proposal`] : []),
    ],
    { proposalId: proposal.proposalId, amount: money.format(amount), installments: proposal.installments },
  );
  return order;
}

export interface FinancedSale {
  authorization: AuthorizationApproved;
  correlationId: string;
  sale: SaleStatus;
}

/** Steps 7 and 8: one `checkout` of examples/pos-checkout, reported as the authorization, then invoice and contract. */
export async function authorizeAndConfirm(
  timeline: Timeline,
  stage: Stage,
  order: CartInput,
): Promise<FinancedSale> {
  const phone = stage.cast.phones.first;
  let authorized!: (authorization: AuthorizationApproved) => void;
  const authorization = new Promise<AuthorizationApproved>((resolve) => {
    authorized = resolve;
  });
  let invoiced: SaleStatus | undefined;
  const invoice = invoiceAtPartner(stage, customers.buyer, phone, (sale) => {
    invoiced = sale;
  });
  const done: Promise<CheckoutResult> = checkout(stage.fin, order, (approved) => {
    authorized(approved);
    return invoice();
  });
  done.catch(() => undefined); // reported by whichever step awaits it

  await timeline.run('authorize', async (step) => {
    const approved = await Promise.race([
      authorization,
      done.then((result) => Promise.reject(new Error(`expected an authorization, got ${outcomeOf(result)}`))),
    ]);
    step.report(
      [
        `${phoneName(phone)} for ${customers.buyer.name}`,
        `authorization ${approved.authorizationId}: ${approved.status}`,
        `the POS may invoice until ${clockTime(approved.expiresAt)} (15 minutes, R-06)`,
      ],
      { authorizationId: approved.authorizationId, status: approved.status, expiresAt: approved.expiresAt },
    );
  });

  return timeline.run('confirm', async (step) => {
    const result = await done;
    if (result.outcome !== 'financed' || !invoiced)
      throw new Error(`expected a contract, got ${outcomeOf(result)}`);
    const { contract } = result;
    const installments = contract.installments ?? [];
    step.report(
      [
        `POS invoiced sale ${invoiced.saleNumber} (NF-e ${invoiceKey(invoiced.nfeAccessKey ?? '')}), then confirmed`,
        `contract ${contract.contractId}: ${contract.status}`,
        `${money.format(contract.principal ?? order.items[0]!.unitPrice)} in ${installments.length} installments, to the cent:`,
        ...installmentLines(installments),
      ],
      {
        saleNumber: invoiced.saleNumber,
        contractId: contract.contractId,
        principal: contract.principal ? money.format(contract.principal) : null,
        installments: installments.length,
      },
    );
    return { authorization: result.authorization, correlationId: result.correlationId, sale: invoiced };
  });
}
