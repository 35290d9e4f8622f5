import { join } from 'node:path';
import { fleetState } from '../support/fleet-state';
import { SHOTS, useBrowser } from './browser';

/**
 * The analyzer page in a real headless Chromium: a person pastes a chat request, submits, and
 * reads the lines, the scenario grid and the tips as tables; a bad request is explained. A
 * screenshot is saved under .svc/reports/screenshots for review.
 */
describe('analyzer page (browser)', () => {
  const state = fleetState();
  const origin = state.baseUrl.replace(/\/v1$/, '');
  const browser = useBrowser();

  it('the form round-trips: lines, 64 scenarios and tips as tables', async () => {
    const page = await browser().newPage({ viewport: { width: 1200, height: 900 } });
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    const response = await page.goto(`${origin}/analyze`);
    expect(response?.status()).toBe(200);
    expect(await page.title()).toBe('svc analyzer');
    await expect(page.locator('label[for="request"]').textContent()).resolves.toContain('Chat completions request');
    const request = { model: 'vendor-1/orion-mini-5', max_tokens: 4000, messages: [{ role: 'user', content: 'Summarize the plot of Hamlet in three sentences.' }] };
    await page.fill('#request', JSON.stringify(request));
    await page.fill('#calls', '5000');
    await page.click('button[type="submit"]');
    await page.waitForSelector('#result table');
    await expect(page.locator('#job').textContent()).resolves.toMatch(/^Job: .+ Today on vendor-1\/orion-mini-5: \$\d+\.\d{6} per call\.$/);
    const tables = page.locator('#result table');
    await expect(tables.count()).resolves.toBe(3);
    await expect(tables.nth(0).locator('tbody tr').count()).resolves.toBe(4);
    await expect(tables.nth(0).locator('tbody tr th').allTextContents()).resolves.toEqual(['auto/cheap', 'auto/balanced', 'auto/best', 'auto']);
    await expect(tables.nth(1).locator('tbody tr').count()).resolves.toBe(64);
    await expect(tables.nth(2).locator('tbody tr th').allTextContents()).resolves.toContain('max_tokens');
    await expect(page.locator('#monthly').textContent()).resolves.toContain('5000 calls');
    await page.screenshot({ path: join(SHOTS, 'analyzer.png'), fullPage: false });
    expect(errors).toEqual([]);
    await page.close();
  });

  it('a request that is not valid is explained, not rendered', async () => {
    const page = await browser().newPage({ viewport: { width: 375, height: 740 }, isMobile: true });
    await page.goto(`${origin}/analyze`);
    await page.fill('#request', '{"model": "auto"}');
    await page.click('button[type="submit"]');
    await page.waitForFunction(() => (document.getElementById('problem')?.textContent ?? '').length > 0);
    await expect(page.locator('#problem').textContent()).resolves.toMatch(/messages/i);
    await expect(page.locator('#result table').count()).resolves.toBe(0);
    await page.fill('#request', 'not json');
    await page.click('button[type="submit"]');
    await expect(page.locator('#problem').textContent()).resolves.toContain('not valid JSON');
    expect(await page.evaluate(() => document.body.scrollWidth)).toBeLessThanOrEqual(375);
    await page.close();
  });
});
