import { randomBytes } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import type { StatusRecorder, StatusDocument, StatusService } from '@svc/backends';

/**
 * Pages people look at (the status document's `web` component): plain server-rendered HTML with
 * a little script, no build step, readable on a phone. Every page request counts in `web`.
 */

const STATUS_TEXT: Record<string, string> = {
  operational: 'Operational',
  degraded: 'Degraded',
  major_outage: 'Major outage',
  unknown: 'Unknown',
};

const OVERALL_TEXT: Record<string, string> = {
  operational: 'All systems operational',
  degraded: 'Some systems degraded',
  major_outage: 'Major outage',
  unknown: 'Status unknown',
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char]!);
}

const percent = (rate: number | null | undefined) => (rate === null || rate === undefined ? '—' : `${(rate * 100).toFixed(2)} %`);
const latency = (ms: number | null | undefined) => (ms === null || ms === undefined ? '—' : `${ms} ms`);

/** The table rows and the summary, rendered the same way on the server and by the page's script. */
export function statusRows(document: StatusDocument): string {
  return document.components
    .map((component) => {
      const web = component.id === 'web';
      return `<tr data-component="${escapeHtml(component.id)}"><th scope="row">${escapeHtml(component.name)}</th><td data-label="Status"><span class="badge ${escapeHtml(component.status)}">${STATUS_TEXT[component.status] ?? escapeHtml(component.status)}</span></td><td data-label="Success, 15 min">${web ? '<span aria-label="not measured">—</span>' : percent(component.success_rate_15m)}</td><td data-label="Success, 24 h">${percent(component.success_rate_24h)}</td><td data-label="p95 latency, 15 min">${web ? '<span aria-label="not measured">—</span>' : latency(component.p95_latency_ms)}</td></tr>`;
    })
    .join('');
}

function summary(document: StatusDocument): string {
  const source = document.source === 'live' ? '' : document.source === 'stale' ? ' (measurements unavailable: showing the last known status)' : ' (measurements unavailable)';
  return `${OVERALL_TEXT[document.status] ?? escapeHtml(document.status)}${source}`;
}

const STYLE = `
:root { color-scheme: light dark; --ok: #137333; --warn: #a05a00; --bad: #b3261e; --muted: #5f6368; }
* { box-sizing: border-box; }
body { font: 16px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0; padding: 1rem; }
main { max-width: 56rem; margin: 0 auto; }
h1 { font-size: 1.5rem; margin: 0 0 .5rem; }
#overall { font-size: 1.125rem; font-weight: 600; padding: .75rem 1rem; border-radius: .5rem; border: 2px solid currentColor; }
#overall.operational { color: var(--ok); } #overall.degraded { color: var(--warn); } #overall.major_outage, #overall.unknown { color: var(--bad); }
.table-wrap { overflow-x: auto; }
table { border-collapse: collapse; width: 100%; margin-top: 1rem; }
caption { text-align: left; color: var(--muted); padding-bottom: .25rem; }
th, td { text-align: left; padding: .5rem; border-bottom: 1px solid #ccc; white-space: nowrap; }
td:nth-child(n+3) { text-align: right; font-variant-numeric: tabular-nums; }
.badge { font-weight: 600; }
.badge.operational { color: var(--ok); } .badge.degraded { color: var(--warn); } .badge.major_outage { color: var(--bad); }
.updated { color: var(--muted); font-size: .875rem; }
@media (max-width: 640px) {
  thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
  table, tbody, tr, th, td { display: block; width: 100%; }
  tr { border: 1px solid #ccc; border-radius: .5rem; margin-bottom: .75rem; padding: .25rem .5rem; }
  th, td { border: 0; white-space: normal; padding: .25rem 0; }
  td { display: flex; justify-content: space-between; gap: 1rem; text-align: right; }
  td::before { content: attr(data-label); color: var(--muted); text-align: left; }
}
`;

/** The status page's script: the document again every 30 s, rendered like the server did. */
function statusScript(): string {
  return `
const STATUS_TEXT = ${JSON.stringify(STATUS_TEXT)};
const OVERALL_TEXT = ${JSON.stringify(OVERALL_TEXT)};
const escapeHtml = ${escapeHtml.toString()};
const percent = ${percent.toString()};
const latency = ${latency.toString()};
const statusRows = ${statusRows.toString()};
const summary = ${summary.toString()};
async function refresh() {
  try {
    const response = await fetch('/v1/status', { headers: { accept: 'application/json' } });
    if (!response.ok) return;
    const document_ = await response.json();
    document.getElementById('rows').innerHTML = statusRows(document_);
    const overall = document.getElementById('overall');
    overall.className = document_.status;
    overall.textContent = summary(document_);
    document.getElementById('updated').textContent = document_.updated_at;
    document.getElementById('updated').setAttribute('datetime', document_.updated_at);
  } catch {}
}
setInterval(refresh, 30000);
`;
}

export function statusPage(document: StatusDocument, nonce: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>svc status</title>
<style nonce="${nonce}">${STYLE}</style>
</head>
<body>
<main>
<h1>svc status</h1>
<p id="overall" class="${escapeHtml(document.status)}" role="status" aria-live="polite">${summary(document)}</p>
<p id="about" class="updated">Each component over the last 15 minutes and 24 hours. Updated <time id="updated" datetime="${escapeHtml(document.updated_at)}">${escapeHtml(document.updated_at)}</time>; refreshed every 30 seconds.</p>
<div class="table-wrap">
<table aria-describedby="about">
<caption>Components</caption>
<thead><tr><th scope="col">Component</th><th scope="col">Status</th><th scope="col">Success, 15 min</th><th scope="col">Success, 24 h</th><th scope="col">p95 latency, 15 min</th></tr></thead>
<tbody id="rows">${statusRows(document)}</tbody>
</table>
</div>
<p class="updated">Machine-readable: <a href="/v1/status">/v1/status</a>.</p>
</main>
<script nonce="${nonce}">${statusScript()}</script>
</body>
</html>`;
}

/** Security headers of a page: its own inline style and script only (by nonce), nothing framed. */
function pageHeaders(res: Response, nonce: string): void {
  res.setHeader('content-type', 'text/html; charset=utf-8');
  res.setHeader('cache-control', 'no-cache');
  res.setHeader('content-security-policy', `default-src 'none'; connect-src 'self'; style-src 'nonce-${nonce}'; script-src 'nonce-${nonce}'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'`);
  res.setHeader('x-content-type-options', 'nosniff');
  res.setHeader('referrer-policy', 'no-referrer');
}

/** GET /status: the status page. */
export function statusPageHandler(status: Pick<StatusService, 'document'>) {
  return async (_req: Request, res: Response): Promise<void> => {
    const nonce = randomBytes(16).toString('base64');
    const document = await status.document();
    pageHeaders(res, nonce);
    res.status(200).send(statusPage(document, nonce));
  };
}

/** The `web` component's measurements: each page request, failed when answered 5xx. */
export function webMeasurements(recorder: Pick<StatusRecorder, 'record'>) {
  return (_req: Request, res: Response, next: NextFunction): void => {
    const startedAt = performance.now();
    res.once('finish', () => recorder.record('web', res.statusCode < 500, performance.now() - startedAt));
    next();
  };
}

const EXAMPLE_REQUEST = JSON.stringify({ model: 'auto', messages: [{ role: 'user', content: 'Write a Python function that checks whether a string is a palindrome.' }] }, null, 2);

/** The analyzer page's script: POST the pasted request, render the answer as tables (text only, never HTML from the answer). */
function analyzerScript(): string {
  return `
const form = document.getElementById('analyze');
const out = document.getElementById('result');
const problem = document.getElementById('problem');
function cell(row, text, header) { const el = document.createElement(header ? 'th' : 'td'); if (header) el.scope = 'row'; el.textContent = text; row.appendChild(el); return el; }
function table(caption, headings, rows) {
  const t = document.createElement('table');
  const c = document.createElement('caption'); c.textContent = caption; t.appendChild(c);
  const head = t.createTHead().insertRow();
  for (const h of headings) { const th = document.createElement('th'); th.scope = 'col'; th.textContent = h; head.appendChild(th); }
  const body = t.createTBody();
  for (const r of rows) { const row = body.insertRow(); r.forEach((v, i) => { const td = cell(row, v === null || v === undefined ? '—' : String(v), i === 0); if (i > 0) td.dataset.label = headings[i]; }); }
  const wrap = document.createElement('div'); wrap.className = 'table-wrap'; wrap.appendChild(t); return wrap;
}
const usd = (v) => v === null || v === undefined ? '—' : '$' + Number(v).toFixed(6);
form.addEventListener('submit', async (event) => {
  event.preventDefault();
  problem.textContent = '';
  out.replaceChildren();
  let request;
  try { request = JSON.parse(document.getElementById('request').value); } catch (error) { problem.textContent = 'The request is not valid JSON: ' + error.message; return; }
  const body = { request };
  const calls = document.getElementById('calls').value.trim();
  if (calls) body.calls_per_month = Number(calls);
  out.setAttribute('aria-busy', 'true');
  try {
    const response = await fetch('/v1/public/analyze', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const answer = await response.json();
    if (!response.ok) { problem.textContent = (answer.error && answer.error.message) || ('Error ' + response.status); return; }
    const summary = document.createElement('p');
    summary.id = 'job';
    summary.textContent = 'Job: ' + answer.job.task + ', difficulty ' + answer.job.difficulty + ', ' + answer.job.stakes + ' stakes. Tokens: ' + answer.tokens.input + ' in, ' + answer.tokens.output + ' out (' + answer.tokens.output_basis + ').' + (answer.today ? ' Today on ' + answer.today.model + ': ' + usd(answer.today.usd) + ' per call.' : '');
    out.appendChild(summary);
    out.appendChild(table('Lines: price per call', ['Line', 'Model', 'Provider', 'Fee', 'Call fee', 'Total', 'Saving'], answer.lines.map((l) => [l.line, l.model, usd(l.provider_usd), usd(l.fee_usd), usd(l.call_fee_usd), usd(l.total_usd), usd(l.saving_usd)])));
    const ids = answer.switches.map((s) => s.id);
    const keys = Object.keys(answer.scenarios).sort().reverse();
    out.appendChild(table('Scenarios: levers on (1) or off (0) in the order ' + ids.join(', '), ['Levers', ...ids, 'Total', 'Saving'], keys.map((k) => [k, ...k.split('').map((b) => (b === '1' ? 'on' : 'off')), usd(answer.scenarios[k].total_usd), usd(answer.scenarios[k].saving_usd)])));
    out.appendChild(table('Tips', ['Tip', 'Saving per call', 'Details'], answer.tips.map((t) => [t.id, t.saving_usd === null ? '—' : usd(t.saving_usd), Object.entries(t.params).map(([k, v]) => k + ': ' + v).join(', ')])));
    if (answer.monthly) {
      const month = document.createElement('p');
      month.id = 'monthly';
      month.textContent = 'Per month (' + answer.monthly.calls + ' calls): today ' + usd(answer.monthly.today_usd) + ', plain auto ' + usd(answer.monthly.zabio_usd) + '.';
      out.appendChild(month);
    }
  } catch (error) {
    problem.textContent = 'The analyzer could not be reached: ' + error.message;
  } finally {
    out.removeAttribute('aria-busy');
  }
});
`;
}

export function analyzerPage(nonce: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>svc analyzer</title>
<style nonce="${nonce}">${STYLE}
label { display: block; font-weight: 600; margin-top: .75rem; }
textarea, input { width: 100%; font: 14px/1.4 ui-monospace, monospace; padding: .5rem; }
textarea { min-height: 12rem; }
button { margin-top: .75rem; font: inherit; font-weight: 600; padding: .5rem 1.25rem; }
#problem { color: var(--bad); font-weight: 600; }
</style>
</head>
<body>
<main>
<h1>svc analyzer</h1>
<p>Paste a chat completions request to see what it costs today, through each auto line and with each lever, and how to cut it. Nothing is run and nothing is stored.</p>
<form id="analyze">
<label for="request">Chat completions request (JSON)</label>
<textarea id="request" name="request" spellcheck="false" required>${escapeHtml(EXAMPLE_REQUEST)}</textarea>
<label for="calls">Calls per month (optional)</label>
<input id="calls" name="calls" type="number" min="0" step="1" inputmode="numeric">
<button type="submit">Analyze</button>
</form>
<p id="problem" role="alert"></p>
<section id="result" aria-live="polite"></section>
</main>
<script nonce="${nonce}">${analyzerScript()}</script>
</body>
</html>`;
}

/** GET /analyze: the analyzer page. */
export function analyzerPageHandler() {
  return (_req: Request, res: Response): void => {
    const nonce = randomBytes(16).toString('base64');
    pageHeaders(res, nonce);
    res.status(200).send(analyzerPage(nonce));
  };
}
