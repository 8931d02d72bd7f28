import nodeCrypto from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Controller, Get, Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Public } from '../../src/auth/auth.decorators';
import { applyServerTimeouts, SERVER_TIMEOUTS } from '../../src/common/security/server-timeouts';
import { MULTIPART_OVERHEAD_BYTES } from '../../src/common/security/request-body-cap.middleware';
import { DEFAULT_SCAN_LIMITS } from '../../src/scanner/archive/scan-limits';
import { createTestApp, type TestApp } from '../support/create-test-app';
import { rawClient, sleep } from './reliability-support';

/**
 * Hardening (docs/security.md): helmet headers on every kind of response, CORS closed unless
 * configured, declared and streamed body limits on every route, slow-client timeouts on a real
 * listening server, constant-time key comparison, and error bodies that never carry a stack trace
 * or SQL (forced through test-only routes that hit the real database and throw).
 */
@Controller('__faults')
@Public()
class FaultRoutesController {
  constructor(private readonly dataSource: DataSource) {}

  @Get('sql')
  async sql(): Promise<unknown> {
    return this.dataSource.query('SELECT secret_column FROM "no_such_table_h12" WHERE api_token = $1', ['bwk_not_a_real_token']);
  }

  @Get('throw')
  throws(): never {
    throw new Error('internal detail /srv/bulwark/secret-path.ts:12');
  }
}

@Module({ controllers: [FaultRoutesController] })
class FaultRoutesModule {}

const JSON_LIMIT = 64 * 1024;
const UPLOAD_CAP = DEFAULT_SCAN_LIMITS.maxUploadBytes + MULTIPART_OVERHEAD_BYTES;

describe('hardening', () => {
  let t: TestApp;
  let token: string;
  let port: number;

  beforeAll(async () => {
    t = await createTestApp({ config: { jsonBodyLimitBytes: JSON_LIMIT }, imports: [FaultRoutesModule] });
    token = await (await t.tenant()).key();
    const server = t.app.getHttpServer() as Server;
    // Production values are applied by configureApp; the slow-client tests use short ones.
    expect(server.headersTimeout).toBe(SERVER_TIMEOUTS.headersTimeoutMs);
    expect(server.requestTimeout).toBe(SERVER_TIMEOUTS.requestTimeoutMs);
    expect(server.keepAliveTimeout).toBe(SERVER_TIMEOUTS.keepAliveTimeoutMs);
    applyServerTimeouts(server, { headersTimeoutMs: 600, requestTimeoutMs: 1200, keepAliveTimeoutMs: 300, checkIntervalMs: 100 });
    await t.app.listen(0, '127.0.0.1');
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => t.close());

  describe('security headers', () => {
    const expectHardened = (headers: Record<string, string | undefined>) => {
      expect(headers['content-security-policy']).toContain("default-src 'none'");
      expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(headers['x-content-type-options']).toBe('nosniff');
      expect(headers['x-frame-options']).toBe('SAMEORIGIN');
      expect(headers['strict-transport-security']).toMatch(/max-age=31536000/);
      expect(headers['referrer-policy']).toBe('no-referrer');
      expect(headers['cross-origin-resource-policy']).toBe('same-origin');
      expect(headers['x-powered-by']).toBeUndefined();
    };

    it('are on successes, auth failures, unknown routes, body-limit refusals and the docs', async () => {
      expectHardened((await t.http().get('/health/live').expect(200)).headers);
      expectHardened((await t.http().get('/api/applications').expect(401)).headers);
      expectHardened((await t.http().get('/no/such/route').set('Authorization', `Bearer ${token}`).expect(404)).headers);
      expectHardened(
        (
          await t
            .http()
            .post('/api/applications/')
            .set('Content-Type', 'application/json')
            .send(`"${'x'.repeat(JSON_LIMIT)}"`)
            .expect(413)
        ).headers,
      );
      const docs = await t.http().get('/docs').expect(200);
      expectHardened(docs.headers);
      expect(docs.text).toContain('swagger');
    });
  });

  describe('CORS', () => {
    it('is closed by default: no allow headers for any origin, preflight included', async () => {
      const simple = await t.http().get('/health/live').set('Origin', 'https://evil.example').expect(200);
      expect(simple.headers['access-control-allow-origin']).toBeUndefined();
      const preflight = await t
        .http()
        .options('/api/applications')
        .set('Origin', 'https://evil.example')
        .set('Access-Control-Request-Method', 'POST')
        .set('Access-Control-Request-Headers', 'authorization');
      expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
      expect(preflight.headers['access-control-allow-methods']).toBeUndefined();
      expect(preflight.status).not.toBe(204);
    });

    it('with CORS_ORIGINS, allows exactly the listed origins, without credentials', async () => {
      const withCors = await createTestApp({ config: { corsOrigins: ['https://console.example'] } });
      try {
        const ok = await withCors.http().options('/api/applications').set('Origin', 'https://console.example').set('Access-Control-Request-Method', 'POST');
        expect(ok.status).toBe(204);
        expect(ok.headers['access-control-allow-origin']).toBe('https://console.example');
        expect(ok.headers['access-control-allow-credentials']).toBeUndefined();
        const other = await withCors.http().get('/health/live').set('Origin', 'https://console.example.evil.test').expect(200);
        expect(other.headers['access-control-allow-origin']).toBeUndefined();
      } finally {
        await withCors.close();
      }
    });
  });

  describe('body limits', () => {
    /** Sends headers declaring `length` bytes and none of the body: the answer must not wait for it. */
    async function declareOnly(method: string, path: string, length: number, contentType: string): Promise<{ status: number; ms: number }> {
      const c = await rawClient(port);
      c.socket.write(
        `${method} ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: ${contentType}\r\nContent-Length: ${length}\r\n\r\n`,
      );
      const started = Date.now();
      while (!/\r\n\r\n/.test(c.received()) && Date.now() - started < 3000) await sleep(10);
      c.socket.destroy();
      return { status: Number(/^HTTP\/1\.1 (\d{3})/.exec(c.received())?.[1] ?? 0), ms: Date.now() - started };
    }

    it('refuses an oversized declared body on every route that takes one, before reading it', async () => {
      const doc = (await t.http().get('/docs/openapi.json').expect(200)).body as { paths: Record<string, Record<string, { requestBody?: unknown }>> };
      const routes = Object.entries(doc.paths).flatMap(([path, ops]) =>
        Object.entries(ops)
          .filter(([, op]) => op.requestBody)
          .map(([method]) => ({ method: method.toUpperCase(), path: path.replace(/\{[^}]+\}/g, '1').replace(/\/+$/, '/') })),
      );
      expect(routes.length).toBeGreaterThan(10);
      for (const r of routes) {
        const scan = r.path === '/api/agent_files/scan';
        const res = await declareOnly(r.method, r.path, (scan ? UPLOAD_CAP : JSON_LIMIT) + 1, scan ? 'multipart/form-data; boundary=x' : 'application/json');
        expect({ route: `${r.method} ${r.path}`, status: res.status }).toEqual({ route: `${r.method} ${r.path}`, status: 413 });
        expect(res.ms).toBeLessThan(2000);
      }
      // Undocumented body-taking routes too (MCP).
      expect((await declareOnly('POST', '/mcp', JSON_LIMIT + 1, 'application/json')).status).toBe(413);
    });

    it('refuses an oversized streamed (chunked) JSON body at the configured limit', async () => {
      const big = JSON.stringify({ name: 'x'.repeat(JSON_LIMIT) });
      const c = await rawClient(port);
      c.socket.write(
        `POST /api/applications/ HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`,
      );
      for (let i = 0; i < big.length; i += 8192) {
        const chunk = big.slice(i, i + 8192);
        c.socket.write(`${chunk.length.toString(16)}\r\n${chunk}\r\n`);
      }
      c.socket.write('0\r\n\r\n');
      const started = Date.now();
      while (!/\r\n\r\n/.test(c.received()) && Date.now() - started < 3000) await sleep(10);
      c.socket.destroy();
      expect(c.received()).toMatch(/^HTTP\/1\.1 413/);
    });

    it('refuses an oversized streamed upload on the scan endpoint (multer limit)', async () => {
      const res = await t
        .http()
        .post('/api/agent_files/scan')
        .set('Authorization', `Bearer ${token}`)
        .attach('file', Buffer.alloc(DEFAULT_SCAN_LIMITS.maxUploadBytes + 10, 0x61), 'SKILL.md');
      expect(res.status).toBe(413);
      expect(res.body.detail).toMatch(/1 MB/);
    });

    it('does not buffer a body no parser accepts: a large text/plain body is answered, not stored', async () => {
      const before = process.memoryUsage().arrayBuffers;
      const res = await t
        .http()
        .post('/api/applications/')
        .set('Authorization', `Bearer ${token}`)
        .set('Content-Type', 'text/plain')
        .send('x'.repeat(JSON_LIMIT - 1));
      expect(res.status).toBe(422);
      expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(16 * 1024 * 1024);
    });
  });

  describe('slow clients (real listening server)', () => {
    it('closes a connection whose headers trickle in (slowloris) with 408', async () => {
      const c = await rawClient(port);
      c.socket.write('GET /health/live HTTP/1.1\r\nHost: x\r\n');
      const trickle = setInterval(() => c.socket.writable && c.socket.write('X-A: b\r\n'), 100);
      const ms = await Promise.race([c.closed, sleep(5000).then(() => -1)]);
      clearInterval(trickle);
      expect(ms).toBeGreaterThan(0);
      expect(ms).toBeLessThan(3000);
      expect(c.received()).toMatch(/^HTTP\/1\.1 408/);
    });

    it('closes a connection whose body trickles in past the request timeout', async () => {
      const c = await rawClient(port);
      c.socket.write(
        `POST /api/applications/ HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"name":"`,
      );
      const trickle = setInterval(() => c.socket.writable && c.socket.write('a'), 100);
      const ms = await Promise.race([c.closed, sleep(6000).then(() => -1)]);
      clearInterval(trickle);
      expect(ms).toBeGreaterThan(0);
      expect(ms).toBeLessThan(4000);
      expect(c.received()).toMatch(/^HTTP\/1\.1 408/);
    });

    it('closes an idle keep-alive connection after the keep-alive timeout', async () => {
      const c = await rawClient(port);
      c.socket.write('GET /health/live HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\n\r\n');
      const ms = await Promise.race([c.closed, sleep(5000).then(() => -1)]);
      expect(c.received()).toMatch(/^HTTP\/1\.1 200/);
      expect(ms).toBeGreaterThan(0);
      expect(ms).toBeLessThan(2500);
    });
  });

  describe('error bodies', () => {
    it('a database error becomes a generic 500: no SQL, table, parameter or stack', async () => {
      const res = await t.http().get('/__faults/sql').expect(500);
      expect(res.body).toEqual({ detail: 'Internal server error' });
      expect(res.text).not.toMatch(/SELECT|no_such_table|secret_column|bwk_|relation|at .*\.ts/i);
    });

    it('an unexpected exception becomes a generic 500 without its message or stack', async () => {
      const res = await t.http().get('/__faults/throw').expect(500);
      expect(res.body).toEqual({ detail: 'Internal server error' });
      expect(res.text).not.toMatch(/secret-path|\/srv\/|at /);
    });

    it('a malformed JSON body is a 400 that does not echo the parser message or the input', async () => {
      const res = await t
        .http()
        .post('/api/applications/')
        .set('Authorization', `Bearer ${token}`)
        .set('Content-Type', 'application/json')
        .send('{"name": SECRET_INPUT');
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ detail: 'Malformed JSON in request body' });
    });
  });

  describe('API key comparison', () => {
    it('compares the stored digest in constant time on a fresh lookup', async () => {
      // The module object itself (a namespace import is a copy under the CJS transform; the default is not).
      const spy = jest.spyOn(nodeCrypto, 'timingSafeEqual');
      try {
        const fresh = await (await t.tenant()).key(['inventory:read']);
        await t.http().get('/api/applications/_terms').set('Authorization', `Bearer ${fresh}`).expect(200);
        expect(spy).toHaveBeenCalled();
      } finally {
        spy.mockRestore();
      }
    });
  });
});
