// `pnpm demo` (until the full sale journey lands): what @fin/core does with money, identifiers, logs and errors.
import { cpf, FinApiError, imei, money, redact } from '@fin/core';

const cart = [
  { name: 'Smartphone 128 GB', unitPrice: money.parse('R$ 1.999,90'), quantity: 1 },
  { name: 'Capa protetora', unitPrice: money.parse('49,90'), quantity: 2 },
  { name: 'Seguro contra roubo (12 meses)', unitPrice: money.parse('239.05'), quantity: 1 },
];
const lines = cart.map((item) => ({ ...item, total: money.multiply(item.unitPrice, item.quantity) }));
const grandTotal = money.sum(lines.map((line) => line.total));

console.log('Cart');
for (const line of lines) {
  console.log(`  ${line.quantity} x ${line.name.padEnd(32)} ${money.format(line.total).padStart(14)}`);
}
console.log(`  ${'Total'.padEnd(36)} ${money.format(grandTotal).padStart(14)}  (${grandTotal.amount} cents)`);

const installments = money.allocate(grandTotal, 10);
console.log('\n10 installments, larger first, adding up to the cent:');
console.log(`  ${installments.map(money.format).join(' | ')}`);
console.log(`  sum = ${money.format(money.sum(installments))}`);

const clientCpf = '52998224725';
const deviceImei = '490154203237518';
console.log('\nIdentifiers');
console.log(
  `  CPF ${cpf.format(clientCpf)} valid: ${cpf.isValid(clientCpf)}, in logs: ${cpf.mask(clientCpf)}`,
);
console.log(`  IMEI ${deviceImei} valid: ${imei.isValid(deviceImei)}, in logs: ${imei.mask(deviceImei)}`);

const logLine = {
  msg: `authorize for ${clientCpf}`,
  request: { clientTaxId: clientCpf, imei: deviceImei, grandTotal },
  headers: { authorization: 'Bearer eyJhbGciOi...', 'idempotency-key': 'a1b2' },
  seller: { cpf: '11144477735', password: 'never-logged' },
};
console.log('\nA log line after redact():');
console.log(`  ${JSON.stringify(redact(logLine))}`);

const error = new FinApiError({ code: 'total_mismatch' });
console.log('\nAn error from the catalog:');
console.log(`  ${error.code} -> HTTP ${error.status}, legacy ${error.legacyCode}: ${error.message}`);
