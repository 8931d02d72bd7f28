import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { ValidationIssue } from '../errors';

const MAX_DEPTH = 64;

/** Where in a parsed JSON value the first string or key holding U+0000 is, or null. */
export function findNulCharacter(value: unknown, path: (string | number)[] = [], depth = 0): (string | number)[] | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path : null;
  if (value === null || typeof value !== 'object' || depth >= MAX_DEPTH) return null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const hit = findNulCharacter(value[i], [...path, i], depth + 1);
      if (hit) return hit;
    }
    return null;
  }
  for (const [key, v] of Object.entries(value)) {
    if (key.includes('\u0000')) return [...path, key];
    const hit = findNulCharacter(v, [...path, key], depth + 1);
    if (hit) return hit;
  }
  return null;
}

function decode(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return s;
  }
}

/**
 * PostgreSQL cannot store U+0000 in text or jsonb ("invalid byte sequence for encoding UTF8: 0x00",
 * "unsupported Unicode escape sequence"): a NUL anywhere in a query parameter or a JSON body used
 * to reach the database and become a 500 (found by test/reliability/inventory-fuzz.spec.ts). No field of
 * this API has a use for it, so it is refused up front with a 422 naming where it was.
 * Runs after the JSON parser; uploads (multipart) are never inspected: file content is data.
 */
export function rejectNulCharacters(): RequestHandler {
  return (req: Request, res: Response, next: NextFunction): void => {
    let loc: ValidationIssue['loc'] | null = null;
    const q = req.url.indexOf('?');
    if (q >= 0 && /%00|\u0000/i.test(req.url.slice(q))) {
      for (const pair of req.url.slice(q + 1).split('&')) {
        const [k = '', v = ''] = pair.split('=');
        if (decode(k).includes('\u0000') || decode(v).includes('\u0000')) {
          loc = ['query', decode(k).replace(/\u0000/g, '\\u0000')];
          break;
        }
      }
    }
    if (!loc && req.body !== undefined && typeof req.body === 'object') {
      const hit = findNulCharacter(req.body);
      if (hit) loc = ['body', ...hit.map((p) => (typeof p === 'string' ? p.replace(/\u0000/g, '\\u0000') : p))];
    }
    if (!loc) return next();
    const issues: ValidationIssue[] = [{ loc, msg: 'must not contain NUL (U+0000) characters', type: 'value_error.nul_character' }];
    res.status(422).json({ detail: issues });
  };
}
