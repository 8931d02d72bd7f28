import { AnthropicJudge, createJudge, OpenAiJudge } from '../scanner/judge';
import { ConfigError, judgeSettingsFrom, loadConfig } from './app-config';

describe('loadConfig', () => {
  it('defaults to file-backed PGlite, in-memory counters and port 3000', () => {
    const c = loadConfig({}, []);
    expect(c.database).toEqual({ kind: 'pglite', dataDir: './data/pglite' });
    expect(c.redisUrl).toBeNull();
    expect(c.port).toBe(3000);
    expect(c.judge.provider).toBe('none');
    expect(c.edgeLimits).toBe('on');
    expect(c.demo).toBe(false);
  });

  it('selects the database by DATABASE_URL (docs/decisions/0020-config-providers-and-migrations.md)', () => {
    expect(loadConfig({ DATABASE_URL: 'pglite://memory' }, []).database).toEqual({ kind: 'pglite', dataDir: 'memory' });
    expect(loadConfig({ DATABASE_URL: 'pglite://./tmp/db' }, []).database).toEqual({ kind: 'pglite', dataDir: './tmp/db' });
    expect(loadConfig({ DATABASE_URL: 'postgres://u@h:5432/db' }, []).database).toEqual({ kind: 'postgres', url: 'postgres://u@h:5432/db' });
  });

  it('reads --demo from argv or BULWARK_DEMO', () => {
    expect(loadConfig({}, ['node', 'main.js', '--demo']).demo).toBe(true);
    expect(loadConfig({ BULWARK_DEMO: '1' }, []).demo).toBe(true);
  });

  it.each([
    ['PORT', 'eighty', /PORT="eighty".*integer from 0 to 65535/],
    ['PORT', '70000', /PORT/],
    ['DATABASE_URL', 'mysql://x', /DATABASE_URL.*postgres:\/\//],
    ['REDIS_URL', 'http://x', /REDIS_URL.*redis:/],
    ['JUDGE_PROVIDER', 'gpt', /JUDGE_PROVIDER.*none\|openai\|anthropic/],
    ['EDGE_LIMITS', 'maybe', /EDGE_LIMITS.*on\|shadow\|off/],
    ['TRUSTED_PROXIES', '10.0.0.0/99', /TRUSTED_PROXIES/],
    ['LOG_LEVEL', 'loud', /LOG_LEVEL/],
    ['AUTH_CACHE_TTL_MS', '60000', /AUTH_CACHE_TTL_MS.*0 to 30000/],
    ['BULWARK_DEMO', 'perhaps', /BULWARK_DEMO/],
  ])('rejects %s=%s naming the variable and what it accepts', (name, value, message) => {
    expect(() => loadConfig({ [name]: value }, [])).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value }, [])).toThrow(message);
  });

  it('reads JUDGE_* the same for every entry point (server, `scan --local`, eval) into options that build the judge they name', () => {
    const openai = judgeSettingsFrom({
      JUDGE_PROVIDER: 'openai',
      JUDGE_BASE_URL: 'http://127.0.0.1:11434/v1',
      JUDGE_MODEL: 'llama3.1',
      JUDGE_TIMEOUT_MS: '5000',
    });
    expect(openai).toEqual({ provider: 'openai', baseUrl: 'http://127.0.0.1:11434/v1', model: 'llama3.1', apiKey: null, timeoutMs: 5000, maxConcurrency: 4 });
    expect(createJudge(openai)).toBeInstanceOf(OpenAiJudge);
    expect(createJudge(judgeSettingsFrom({ JUDGE_PROVIDER: 'Anthropic', JUDGE_MODEL: 'claude-x', JUDGE_API_KEY: 'k' }))).toBeInstanceOf(AnthropicJudge);
    expect(loadConfig({ JUDGE_PROVIDER: 'openai', JUDGE_MODEL: 'm', JUDGE_MAX_CONCURRENCY: '8' }, []).judge).toEqual(
      judgeSettingsFrom({ JUDGE_PROVIDER: 'openai', JUDGE_MODEL: 'm', JUDGE_MAX_CONCURRENCY: '8' }),
    );
  });

  it.each([
    ['JUDGE_TIMEOUT_MS', 'soon', /JUDGE_TIMEOUT_MS="soon".*integer from 100 to 600000/],
    ['JUDGE_TIMEOUT_MS', '50', /JUDGE_TIMEOUT_MS/],
    ['JUDGE_MAX_CONCURRENCY', '0', /JUDGE_MAX_CONCURRENCY.*1 to 256/],
    ['JUDGE_BASE_URL', 'not a url', /JUDGE_BASE_URL.*a URL \(http:, https:\)/],
  ])('judgeSettingsFrom rejects %s=%s with the config error every entry point shows', (name, value, message) => {
    expect(() => judgeSettingsFrom({ JUDGE_PROVIDER: 'openai', JUDGE_MODEL: 'm', [name]: value })).toThrow(ConfigError);
    expect(() => judgeSettingsFrom({ JUDGE_PROVIDER: 'openai', JUDGE_MODEL: 'm', [name]: value })).toThrow(message);
  });

  it('accepts IPv4 and IPv6 CIDRs for TRUSTED_PROXIES', () => {
    expect(loadConfig({ TRUSTED_PROXIES: '10.0.0.0/8, ::1, 2001:db8::/32' }, []).trustedProxies).toEqual(['10.0.0.0/8', '::1', '2001:db8::/32']);
  });
});
