import { escapeHtml, statusPage, statusRows } from './pages';

const DOCUMENT = {
  status: 'degraded' as const,
  updated_at: '2026-11-23T08:00:00Z',
  source: 'stale' as const,
  components: [
    { id: 'api', name: 'API', status: 'degraded' as const, success_rate_15m: 0.95, success_rate_24h: 0.9987, p95_latency_ms: 420 },
    { id: 'web', name: 'Web pages', status: 'operational' as const, success_rate_24h: null },
    { id: 'vendor:x', name: '<img src=x onerror=alert(1)>', status: 'operational' as const, success_rate_15m: null, success_rate_24h: null, p95_latency_ms: null },
  ],
};

describe('status page rendering', () => {
  it('escapes everything it prints', () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe('&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;');
    expect(statusRows(DOCUMENT)).not.toContain('<img');
  });

  it('rates as percentages, p95 in ms, a dash for what is not measured; the web row has no 15-minute rate or p95', () => {
    const rows = statusRows(DOCUMENT);
    expect(rows).toContain('<td data-label="Success, 15 min">95.00 %</td>');
    expect(rows).toContain('<td data-label="Success, 24 h">99.87 %</td>');
    expect(rows).toContain('<td data-label="p95 latency, 15 min">420 ms</td>');
    expect(rows.match(/aria-label="not measured"/g)).toHaveLength(2);
  });

  it('says when the measurements are stale; the inline style and script carry the nonce', () => {
    const html = statusPage(DOCUMENT, 'abc123');
    expect(html).toContain('Some systems degraded (measurements unavailable: showing the last known status)');
    expect(html).toContain('<style nonce="abc123">');
    expect(html).toContain('<script nonce="abc123">');
    expect(html).toContain('<html lang="en">');
  });
});
