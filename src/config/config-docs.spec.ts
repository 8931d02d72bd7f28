import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { CONFIG_VARIABLES, loadConfig } from './app-config';

describe('documented configuration', () => {
  const readme = readFileSync(resolve(__dirname, '../../README.md'), 'utf8');
  const table = readme.slice(readme.indexOf('## Configuration'), readme.indexOf('## Architecture'));
  const documented = [...table.matchAll(/^\| `([A-Z0-9_]+)` \|/gm)].map((m) => m[1]);

  it('the README table lists exactly the variables the config module reads', () => {
    expect([...documented].sort()).toEqual([...CONFIG_VARIABLES].sort());
  });

  it('every listed variable is really read by loadConfig (a bad value is noticed or changes the result)', () => {
    const baseline = JSON.stringify(loadConfig({}, []));
    const probe: Record<string, string> = {
      PORT: '1234',
      HOST: '127.0.0.1',
      DATABASE_URL: 'pglite://memory',
      DB_MIGRATIONS_RUN: 'false',
      REDIS_URL: 'redis://r:6379',
      LOG_LEVEL: 'debug',
      LOG_FORMAT: 'json',
      JUDGE_PROVIDER: 'openai',
      JUDGE_BASE_URL: 'http://j',
      JUDGE_MODEL: 'm',
      JUDGE_API_KEY: 'k',
      JUDGE_TIMEOUT_MS: '1234',
      JUDGE_MAX_CONCURRENCY: '2',
      EDGE_LIMITS: 'off',
      TRUSTED_PROXIES: '10.0.0.1',
      BULWARK_DEMO: 'true',
      BULWARK_DEMO_TENANT: 'demo',
      SEED_FILE: 'seed.json',
      FEATURES: 'x',
      AUTH_CACHE_TTL_MS: '5',
      API_KEY_RATE_LIMIT_PER_MINUTE: '7',
      SCAN_WORKERS: '3',
      SCAN_MAX_QUEUE: '9',
      SCAN_TIMEOUT_MS: '999',
      JSON_BODY_LIMIT_BYTES: '2048',
      CORS_ORIGINS: 'https://a',
      PUBLIC_URL: 'https://b',
      OAUTH_ISSUER: 'https://i',
      OAUTH_JWKS_URL: 'https://i/jwks',
      OAUTH_DEFAULT_TENANT: 'acme',
      REPLICA_ID: 'app-1',
    };
    for (const name of CONFIG_VARIABLES) {
      expect({ name, probed: name in probe }).toEqual({ name, probed: true });
      expect({ name, changed: JSON.stringify(loadConfig({ [name]: probe[name] }, [])) !== baseline }).toEqual({ name, changed: true });
    }
  });
});
