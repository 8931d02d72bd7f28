import { setFlagsFromString } from 'node:v8';

/**
 * Makes V8 compile every regular expression to machine code at its first use instead of starting
 * it in the bytecode interpreter (`--no-regexp-tier-up`, process-wide). A pattern first run on short
 * lines — the analyzer's warm-up, a small file — could stay interpreted in a long-lived process and
 * scan 2× slower from then on (docs/decisions/0033-regexps-compiled-at-first-use.md).
 */
export function compileRegexpsAtFirstUse(): void {
  setFlagsFromString('--no-regexp-tier-up');
}
