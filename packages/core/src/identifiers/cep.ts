// CEP, the Brazilian postal code: 8 digits, no mask, no check digit.
const PATTERN = /^[0-9]{8}$/;
const FORMATTED = /^(\d{5})-?(\d{3})$/;

/** The spec's pattern `^[0-9]{8}$`: format only, a CEP has no check digit. */
function isValidCep(s: unknown): s is string {
  return typeof s === 'string' && PATTERN.test(s);
}

/** `01310100` -> `01310-100`; any other shape is returned unchanged. */
function formatCep(s: string): string {
  const m = FORMATTED.exec(s);
  return m ? `${m[1]}-${m[2]}` : s;
}

/** For logs: keeps the region (first 5 digits), `01310100` -> `01310-***`. */
function maskCep(s: string): string {
  const m = FORMATTED.exec(s);
  return m ? `${m[1]}-***` : '*'.repeat(s.length);
}

// Unique local names, exported under the namespace's: the declaration bundle then needs no `name$N` alias.
export { formatCep as format, isValidCep as isValid, maskCep as mask };
