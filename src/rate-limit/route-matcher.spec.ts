import { compileRoute, requestPath, RouteTable, upperCaseMethod } from './route-matcher';

describe('route matching before routing', () => {
  const table = new RouteTable([
    { route: { method: 'POST', path: '/api/secrets/:secret_id/recheck' }, value: 'recheck' },
    { route: { method: 'POST', path: '/api/upgrade-guidance/' }, value: 'guidance' },
    { route: { method: 'GET', path: '/api/cli/whoami' }, value: 'whoami' },
  ]);

  it('extracts path parameters', () => {
    expect(table.match('POST', '/api/secrets/s-42/recheck')).toEqual([{ value: 'recheck', params: { secret_id: 's-42' } }]);
  });

  it('requires the method to match', () => {
    expect(table.match('GET', '/api/secrets/s-42/recheck')).toEqual([]);
    expect(table.match(undefined, '/api/secrets/s-42/recheck')).toEqual([]);
  });

  it('makes the trailing slash optional and ignores case, so neither dodges a limit', () => {
    expect(table.match('post', '/api/upgrade-guidance')).toHaveLength(1);
    expect(table.match('POST', '/API/Upgrade-Guidance/')).toHaveLength(1);
    expect(table.match('POST', '/api/upgrade-guidance/generate')).toEqual([]);
  });

  it("upper-cases any spelling of a method; the parser's own spellings pass unchanged", () => {
    expect(upperCaseMethod('GET')).toBe('GET');
    expect(upperCaseMethod('PROPFIND')).toBe('PROPFIND');
    expect(upperCaseMethod('patch')).toBe('PATCH');
    expect(upperCaseMethod('Propfind')).toBe('PROPFIND');
    expect(upperCaseMethod(undefined)).toBe('');
  });

  it('limits HEAD like GET', () => {
    expect(table.match('HEAD', '/api/cli/whoami')).toHaveLength(1);
  });

  it('does not let a parameter span segments', () => {
    expect(table.match('POST', '/api/secrets/a/b/recheck')).toEqual([]);
    expect(compileRoute({ method: 'GET', path: '/a.b' }, 0).regex.test('/aXb')).toBe(false);
  });

  it('reads the path without query and with escapes decoded', () => {
    expect(requestPath('/api/reset%5Fpassword?x=1')).toBe('/api/reset_password');
    expect(requestPath('/bad%E0%A4%A')).toBe('/bad%E0%A4%A');
    expect(requestPath(undefined)).toBe('/');
  });
});
