/**
 * V8 options the service is started with (`npm start`, the container, the benches and the
 * replicas the tests start). `--no-regexp-tier-up`: every regex is compiled to machine code at its
 * first use; started in V8's interpreter, patterns first run on short lines could stay there in a
 * long-lived process and scan 250 KB about twice as slowly. V8 options cannot be changed safely
 * once code has run, so they are given on the command line
 * (docs/decisions/0033-regexps-compiled-at-first-use.md).
 */
export const SERVICE_NODE_FLAGS: readonly string[] = ['--no-regexp-tier-up'];
