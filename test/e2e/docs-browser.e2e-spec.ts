import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { clientFor } from '../factories/inventory.factory';
import { createTestApp, type TestApp } from '../support/create-test-app';

/**
 * Swagger UI in a real browser: Debian's Chromium driven by playwright-core
 * opens /docs on the app listening on loopback, authorises with an API key and runs "Try it out"
 * on a GET and a POST. Needs Chromium (`apt-get install -y chromium`; .ci/run installs it), or
 * CHROMIUM_PATH naming another Chromium executable; without one the test reports itself skipped.
 */

const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter((p): p is string => Boolean(p));
const executablePath = candidates.find((p) => existsSync(p));

// Generous: CI is two slow cores shared with other test files. Only waits on conditions, never sleeps.
const STEP_MS = 90_000;

/** Expands an operation, presses "Try it out", optionally replaces the body, executes; returns what the page shows. */
async function tryItOut(page: Page, operationId: string, tag: string, body?: unknown): Promise<{ status: string; body: unknown; curl: string }> {
  const op: Locator = page.locator(`#operations-${tag}-${operationId}`);
  await op.locator('.opblock-summary').first().click();
  await op.locator('button.try-out__btn').click();
  if (body !== undefined) await op.locator('textarea.body-param__text').fill(JSON.stringify(body));
  await op.locator('button.execute').click();
  // The live response row appears once the browser has an answer (or a fetch error, shown in words).
  const row = op.locator('.live-responses-table tr.response');
  await row.waitFor({ state: 'visible' });
  const details = row.locator('.response-col_description');
  const pre = details.locator('pre.microlight');
  const text = (await pre.count()) ? await pre.first().innerText() : await details.innerText();
  let shown: unknown = text;
  try {
    shown = JSON.parse(text);
  } catch {
    /* not JSON: the page's error text is the result */
  }
  return { status: (await row.locator('.response-col_status').innerText()).trim(), body: shown, curl: await op.locator('.curl-command').first().innerText() };
}

if (!executablePath) {
  const reason = `no Chromium at ${candidates.join(', ')} (apt-get install -y chromium, or set CHROMIUM_PATH)`;
  console.warn(`SKIPPED Swagger UI browser e2e: ${reason}`);
  describe('Swagger UI in Chromium', () => {
    it.skip(`is skipped: ${reason}`, () => undefined);
  });
} else {
  describe('Swagger UI in Chromium: authorise, then "Try it out" on a GET and a POST', () => {
    let t: TestApp;
    let browser: Browser;
    let page: Page;
    let base: string;
    const pageErrors: string[] = [];

    beforeAll(async () => {
      t = await createTestApp();
      await t.app.listen(0, '127.0.0.1');
      base = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
      // Root (CI) cannot use Chromium's sandbox; /dev/shm may be small in containers.
      browser = await chromium.launch({ executablePath, args: ['--no-sandbox', '--disable-dev-shm-usage'], timeout: STEP_MS });
      page = await browser.newPage();
      page.setDefaultTimeout(STEP_MS);
      page.on('pageerror', (err) => pageErrors.push(err.message));
    }, 3 * STEP_MS);
    afterAll(async () => {
      await browser?.close();
      await t?.close();
    });

    it(
      'lists with GET and creates with POST, as the page shows and the server stores',
      async () => {
        const tenant = await t.tenant();
        const api = await clientFor(t, tenant, ['inventory:read', 'inventory:write']);
        await api.post('/api/applications/').send({ name: 'seeded-by-api', tier: 'TIER_3' }).expect(200);

        await page.goto(`${base}/docs`);
        await page.locator('.swagger-ui .info .title', { hasText: 'Bulwark API' }).waitFor();

        await page.locator('.auth-wrapper button.authorize').click();
        await page.locator('#auth-bearer-value').fill(api.token);
        await page.locator('.modal-ux button[type=submit]').click();
        await page.locator('.modal-ux button.btn-done').click();
        await page.locator('.auth-wrapper button.authorize.locked').waitFor();

        const list = await tryItOut(page, 'Applications_listGet', 'applications');
        expect(list.curl).toContain(`Authorization: Bearer ${api.token}`);
        expect(list).toMatchObject({ status: '200', body: { total: 1, items: [{ name: 'seeded-by-api', tier: 'TIER_3' }] } });

        const created = await tryItOut(page, 'Applications_create', 'applications', { name: 'created-in-browser', tier: 'TIER_2' });
        expect(created).toMatchObject({ status: '200', body: { id: expect.any(Number), name: 'created-in-browser', tier: 'TIER_2' } });
        const stored = await api.get(`/api/applications/${(created.body as { id: number }).id}`).expect(200);
        expect(stored.body).toMatchObject({ name: 'created-in-browser', tier: 'TIER_2' });

        expect(pageErrors).toEqual([]);
      },
      6 * STEP_MS,
    );
  });
}
