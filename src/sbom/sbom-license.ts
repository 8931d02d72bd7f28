import { Models, SPDX } from '@cyclonedx/cyclonedx-library';

/** A license string from the inventory, classified the way CycloneDX needs it. */
export type ParsedLicense = { kind: 'id'; value: string } | { kind: 'expression'; value: string } | { kind: 'name'; value: string };

const OPERATORS = new Set(['AND', 'OR', 'WITH']);
const LICENSE_REF = /^(DocumentRef-[A-Za-z0-9.-]+:)?LicenseRef-[A-Za-z0-9.-]+$/;
const EXCEPTION_ID = /^[A-Za-z0-9][A-Za-z0-9.-]*$/;

/**
 * Classifies one license string: a known SPDX id (case fixed up, `mit` → `MIT`), a valid SPDX
 * expression (re-spelled canonically: known ids fixed up, operators upper-case, single spaces), or
 * otherwise a free license name. Empty → null.
 */
export function parseLicense(raw: string): ParsedLicense | null {
  const text = raw.trim();
  if (text.length === 0) return null;
  const id = SPDX.fixupSpdxId(text);
  if (id !== undefined) return { kind: 'id', value: id };
  const expression = canonicalSpdxExpression(text);
  if (expression !== null) return { kind: 'expression', value: expression };
  return { kind: 'name', value: text };
}

/**
 * A small recursive-descent check of the SPDX license-expression grammar (SPDX 2.3 annex D):
 *   or := and ("OR" and)* ; and := with ("AND" with)* ; with := atom ("WITH" exception)? ;
 *   atom := "(" or ")" | known-id ["+"] | [DocumentRef-x:]LicenseRef-y
 * Returns the canonical spelling, or null when the text is not a valid expression.
 */
export function canonicalSpdxExpression(text: string): string | null {
  const tokens = text
    .replace(/([()])/g, ' $1 ')
    .split(/\s+/)
    .filter((t) => t.length > 0);
  let pos = 0;
  const out: string[] = [];
  const peekOperator = (op: string): boolean => pos < tokens.length && tokens[pos].toUpperCase() === op;

  const atom = (): boolean => {
    const token = tokens[pos];
    if (token === undefined) return false;
    if (token === '(') {
      pos++;
      out.push('(');
      if (!orExpr() || tokens[pos] !== ')') return false;
      pos++;
      out.push(')');
      return true;
    }
    if (token === ')' || OPERATORS.has(token.toUpperCase())) return false;
    pos++;
    if (LICENSE_REF.test(token)) {
      out.push(token);
      return true;
    }
    const plus = token.endsWith('+');
    const id = SPDX.fixupSpdxId(plus ? token.slice(0, -1) : token);
    if (id === undefined) return false;
    out.push(plus ? `${id}+` : id);
    return true;
  };
  const withExpr = (): boolean => {
    if (!atom()) return false;
    if (peekOperator('WITH')) {
      pos++;
      const exception = tokens[pos];
      if (exception === undefined || !EXCEPTION_ID.test(exception) || OPERATORS.has(exception.toUpperCase())) return false;
      pos++;
      out.push('WITH', SPDX.fixupSpdxId(exception) ?? exception);
    }
    return true;
  };
  const binary = (op: string, operand: () => boolean) => (): boolean => {
    if (!operand()) return false;
    while (peekOperator(op)) {
      pos++;
      out.push(op);
      if (!operand()) return false;
    }
    return true;
  };
  const andExpr = binary('AND', withExpr);
  const orExpr = binary('OR', andExpr);

  if (!orExpr() || pos !== tokens.length) return null;
  return out.join(' ').replace(/\( /g, '(').replace(/ \)/g, ')');
}

/**
 * The CycloneDX licenses of one package from the union of what its observations say.
 * CycloneDX 1.6 allows EITHER a list of ids/names OR exactly one expression, so: a lone expression
 * stays an expression; expressions mixed with other entries are kept verbatim as license names
 * (nothing is dropped, nothing is re-combined into a claim the sources did not make).
 */
export function toCycloneDxLicenses(licenses: Iterable<ParsedLicense>): Models.License[] {
  const unique = new Map<string, ParsedLicense>();
  for (const l of licenses) unique.set(`${l.kind}\u0000${l.value}`, l);
  const sorted = [...unique.values()].sort((a, b) => (a.value < b.value ? -1 : a.value > b.value ? 1 : 0));
  if (sorted.length === 1 && sorted[0].kind === 'expression') {
    return [new Models.LicenseExpression(sorted[0].value)];
  }
  return sorted.map((l) => (l.kind === 'id' ? new Models.SpdxLicense(l.value) : new Models.NamedLicense(l.value)));
}
