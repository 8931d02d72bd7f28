/** Injection token for the `Judge` (interface plus a same-named token, docs/decisions/0020-config-providers-and-migrations.md). Nest-free. */
export const JUDGE = Symbol('JUDGE');
