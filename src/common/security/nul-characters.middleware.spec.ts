import type { Request, Response } from 'express';
import { findNulCharacter, rejectNulCharacters } from './nul-characters.middleware';

function run(url: string, body?: unknown): { status?: number; json?: unknown; next: boolean } {
  const out: { status?: number; json?: unknown; next: boolean } = { next: false };
  const res = {
    status(code: number) {
      out.status = code;
      return this;
    },
    json(payload: unknown) {
      out.json = payload;
      return this;
    },
  } as unknown as Response;
  rejectNulCharacters()({ url, body } as Request, res, () => (out.next = true));
  return out;
}

describe('NUL characters (PostgreSQL cannot store them)', () => {
  it('finds the first NUL in strings and keys, with its path', () => {
    expect(findNulCharacter({ a: ['ok', { b: 'x\u0000' }] })).toEqual(['a', 1, 'b']);
    expect(findNulCharacter({ ['k\u0000']: 1 })).toEqual(['k\u0000']);
    expect(findNulCharacter({ a: 'fine', b: [1, null, true] })).toBeNull();
  });

  it('refuses a NUL in a query parameter with 422 naming it', () => {
    const r = run('/api/applications?limit=5&search=%00');
    expect(r.next).toBe(false);
    expect(r.status).toBe(422);
    expect(r.json).toEqual({ detail: [{ loc: ['query', 'search'], msg: 'must not contain NUL (U+0000) characters', type: 'value_error.nul_character' }] });
  });

  it('refuses a NUL anywhere in a JSON body with 422 and its loc', () => {
    const r = run('/api/applications/', { name: 'a', meta: { k: ['x', 'y\u0000'] } });
    expect(r.status).toBe(422);
    expect((r.json as { detail: { loc: unknown[] }[] }).detail[0]!.loc).toEqual(['body', 'meta', 'k', 1]);
  });

  it('lets everything else through, including other control characters and malformed escapes', () => {
    expect(run('/api/applications?search=%01%E0%A4%A&x=%2500', { name: 'tab\there', z: '\u0001' }).next).toBe(true);
    expect(run('/api/agent_files/scan').next).toBe(true);
  });
});
