import { ConfigError, loadConfig } from '../config/app-config';
import { createTestApp, type TestApp } from '../../test/support/create-test-app';
import { REPLICA_HEADER } from './replica-header.middleware';

describe('REPLICA_ID', () => {
  it('is unset by default and taken verbatim when header-safe', () => {
    expect(loadConfig({}, []).replicaId).toBeNull();
    expect(loadConfig({ REPLICA_ID: 'bulwark-7d9f-x2.a_1' }, []).replicaId).toBe('bulwark-7d9f-x2.a_1');
  });

  it.each(['two words', 'a\r\nSet-Cookie: x=1', 'é', 'x'.repeat(65)])('refuses %j (it goes into a response header)', (value) => {
    expect(() => loadConfig({ REPLICA_ID: value }, [])).toThrow(ConfigError);
  });
});

describe('X-Bulwark-Replica header', () => {
  let named: TestApp;

  beforeAll(async () => {
    named = await createTestApp({ config: { replicaId: 'replica-under-test' } });
  });
  afterAll(() => named?.close());

  it('is on successful, unauthenticated and unknown-route answers', async () => {
    for (const [path, status] of [
      ['/health/live', 200],
      ['/api/admin/api-keys', 401],
      ['/api/no-such-route', 404],
    ] as const) {
      const res = await named.http().get(path);
      expect({ path, status: res.status, replica: res.headers[REPLICA_HEADER.toLowerCase()] }).toEqual({ path, status, replica: 'replica-under-test' });
    }
  });
});
