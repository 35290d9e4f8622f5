import { join } from 'node:path';
import { fleetState } from '../support/fleet-state';
import { SHOTS, useBrowser } from './browser';

/**
 * The status page in a real headless Chromium (Debian's package; `npm test`'s set-up installs it
 * where missing): it loads, shows every component of the live document with its rates, is
 * readable on a phone's width, and refreshes itself from /v1/status. A screenshot of each width is
 * saved under .svc/reports/screenshots for review.
 */
describe('status page (browser)', () => {
  const state = fleetState();
  const origin = state.baseUrl.replace(/\/v1$/, '');
  const browser = useBrowser();

  it('shows the live document: overall status and every component with its rates', async () => {
    // Traffic so the api and vendor rows have numbers.
    for (let i = 0; i < 3; i += 1) {
      await fetch(`${state.baseUrl}/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${state.apiKey}`, 'content-type': 'application/json' }, body: JSON.stringify({ model: 'vendor-1/orion-mini-5', max_tokens: 5, messages: [{ role: 'user', content: 'status page' }] }) });
    }
    const document = (await (await fetch(`${state.baseUrl}/status`)).json()) as { status: string; components: Array<{ id: string; name: string }> };
    const page = await browser().newPage({ viewport: { width: 1100, height: 900 } });
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
    const response = await page.goto(`${origin}/status`);
    expect(response?.status()).toBe(200);
    expect(response?.headers()['content-security-policy']).toContain("default-src 'none'");
    expect(await page.title()).toBe('svc status');
    expect(await page.locator('html').getAttribute('lang')).toBe('en');
    await expect(page.locator('h1').textContent()).resolves.toBe('svc status');
    const rows = page.locator('#rows tr');
    await expect(rows.count()).resolves.toBe(document.components.length);
    for (const component of document.components) {
      await expect(page.locator(`tr[data-component="${component.id}"] th`).textContent()).resolves.toBe(component.name);
    }
    await expect(page.locator('#overall').getAttribute('role')).resolves.toBe('status');
    await expect(page.locator('#overall').textContent()).resolves.toMatch(/operational|degraded|outage|unknown/i);
    await page.screenshot({ path: join(SHOTS, 'status-desktop.png'), fullPage: true });
    expect(errors).toEqual([]);
    await page.close();
  });

  it('is readable on a phone and refreshes from /v1/status', async () => {
    const page = await browser().newPage({ viewport: { width: 375, height: 740 }, deviceScaleFactor: 2, isMobile: true });
    await page.clock.install();
    await page.goto(`${origin}/status`);
    // The heading and the overall status fit the width; the table scrolls inside its own box.
    const bodyWidth = await page.evaluate(() => document.body.scrollWidth);
    expect(bodyWidth).toBeLessThanOrEqual(375);
    const refreshed = page.waitForResponse((response) => response.url().endsWith('/v1/status') && response.status() === 200);
    await page.clock.runFor(30_000);
    await refreshed;
    await expect(page.locator('#rows tr').count()).resolves.toBe(12);
    await page.screenshot({ path: join(SHOTS, 'status-phone.png'), fullPage: true });
    await page.close();
  });
});
