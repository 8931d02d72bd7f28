/** Injection token for the `Judge` (DESIGN.md §2: interface plus a same-named token). Nest-free. */
export const JUDGE = Symbol('JUDGE');
