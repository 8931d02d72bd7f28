/**
 * Route suffix for a path that must END WITH A SLASH and be told apart from the same path without
 * it (`POST /api/applications/` creates, `POST /api/applications` lists: docs/inventory.md).
 *
 * Nest strips trailing slashes from every route path it registers, so `@Post('x/')` would collide
 * with `@Post('x')`. `x/{/}` (path-to-regexp's optional group) is not stripped, and on our strict
 * Express router it matches `x/` but never `x`. The OpenAPI document shows it as `x/`.
 */
export const TRAILING_SLASH = '{/}';
