/** Largest PostgreSQL `integer` (int4): the bound of every integer id, count and path parameter. */
export const MAX_INT4 = 2_147_483_647;
