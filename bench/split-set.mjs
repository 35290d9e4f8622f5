// The fixed set of 50 source+question requests for bench/split.mjs: documents of 5k–50k tokens
// (characters / 4) generated deterministically from the templates below, each question annotated
// with the source lines it needs (`needed`, exact line texts). 40 are lookups that need a few
// lines; 10 are whole-document tasks (summaries, translations, counts over every line, rewrites)
// that must not split (`whole: true`).

/** A small deterministic generator (mulberry32). */
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const pick = (r, list) => list[Math.floor(r() * list.length)];

const CITIES = ['Oslo', 'Lisbon', 'Denver', 'Osaka', 'Nairobi', 'Porto', 'Quebec', 'Tallinn', 'Austin', 'Krakow', 'Perth', 'Lima', 'Ghent', 'Dakar', 'Leeds', 'Turin'];
const TEAMS = ['Billing', 'Logistics', 'Security', 'Support', 'Facilities', 'Payroll', 'Procurement', 'Legal', 'Research', 'Marketing', 'Sales', 'Quality'];
const PEOPLE = ['Amara Okafor', 'Jonas Berg', 'Priya Raman', 'Lucas Moreau', 'Mei Tanaka', 'Diego Alvarez', 'Sofia Lind', 'Omar Haddad', 'Hannah Weiss', 'Kofi Mensah', 'Elena Petrova', 'Tomasz Nowak'];
const PRODUCTS = ['trail jacket', 'rain shell', 'wool beanie', 'hiking boot', 'day pack', 'sleeping bag', 'camp stove', 'water filter', 'headlamp', 'trekking pole', 'dry bag', 'fleece vest'];
const COLOURS = ['red', 'navy', 'olive', 'slate', 'ochre', 'teal', 'black', 'sand'];
const HOSTS = ['web-01', 'web-02', 'web-03', 'api-01', 'api-02', 'db-01', 'db-02', 'queue-01', 'cache-01', 'batch-01'];
const INFO = ['request served', 'health check passed', 'connection pool resized', 'cache warmed', 'config reloaded', 'job finished', 'session opened', 'session closed'];

/** Operations handbook: numbered sections of office facts. */
function handbook(seed, sections) {
  const r = rng(seed);
  const lines = ['OPERATIONS HANDBOOK', ''];
  const facts = [];
  for (let i = 0; i < sections; i += 1) {
    const team = TEAMS[i % TEAMS.length];
    const city = CITIES[(i * 7 + seed) % CITIES.length];
    const form = 4000 + i * 13 + (seed % 7);
    const ext = 200 + i + (seed % 50);
    lines.push(`Section ${i + 1}. ${team} procedures, ${city} office`);
    const hours = `The ${team} desk in ${city} opens at ${7 + (i % 4)}:00 and closes at ${16 + (i % 3)}:30 on working days.`;
    const forms = `Requests to ${team} in ${city} use form ${form}; an approved form is archived after ${30 + (i % 5) * 15} days.`;
    const escalation = `Escalations from the ${city} ${team} office go to the duty manager on extension ${ext}.`;
    const budget = `Budget changes above ${(i % 6) + 2},000 dollars need a second signature from ${pick(r, PEOPLE)}.`;
    lines.push(hours, forms, escalation, budget, `Visitors to the ${city} site sign in at reception and wear a badge at all times.`, '');
    facts.push({ team, city, form, ext, hours, forms, escalation, budget });
  }
  return { text: lines.join('\n'), facts };
}

/** Server log: timestamped lines, mostly routine, with a few incidents. */
function serverLog(seed, count) {
  const r = rng(seed);
  const lines = [];
  const incidents = [];
  for (let i = 0; i < count; i += 1) {
    const minute = String(i % 60).padStart(2, '0');
    const hour = String(Math.floor(i / 60) % 24).padStart(2, '0');
    const host = pick(r, HOSTS);
    if (i % 97 === 41) {
      const code = 5000 + i;
      const line = `2024-05-14T${hour}:${minute}:07Z host=${host} level=ERROR code=E${code} msg="disk quota exceeded on volume vol-${i}; writes rejected"`;
      lines.push(line);
      incidents.push({ host, code, line, time: `${hour}:${minute}` });
    } else {
      lines.push(`2024-05-14T${hour}:${minute}:${String(Math.floor(r() * 60)).padStart(2, '0')}Z host=${host} level=INFO msg="${pick(r, INFO)}" latency_ms=${Math.floor(r() * 400)}`);
    }
  }
  return { text: lines.join('\n'), incidents };
}

/** Product catalogue: one line per SKU. */
function catalogue(seed, count) {
  const r = rng(seed);
  const lines = ['PRODUCT CATALOGUE (sku | item | colour | price | stock | warehouse)', ''];
  const items = [];
  for (let i = 0; i < count; i += 1) {
    const sku = `SKU-${seed}${String(i).padStart(4, '0')}`;
    const item = `${pick(r, COLOURS)} ${PRODUCTS[i % PRODUCTS.length]}`;
    const price = (19 + Math.floor(r() * 280) + 0.99).toFixed(2);
    const stock = Math.floor(r() * 400);
    const city = pick(r, CITIES);
    const line = `${sku} | ${item} | price ${price} USD | ${stock} in stock | warehouse ${city}`;
    lines.push(line);
    items.push({ sku, item, price, stock, city, line });
  }
  return { text: lines.join('\n'), items };
}

/** Meeting minutes: dated meetings with attendees, decisions and actions. */
function minutes(seed, meetings) {
  const r = rng(seed);
  const lines = ['MINUTES OF THE PLANNING COMMITTEE', ''];
  const records = [];
  for (let i = 0; i < meetings; i += 1) {
    const day = `2024-${String((i % 12) + 1).padStart(2, '0')}-${String((i % 27) + 1).padStart(2, '0')}`;
    const owner = PEOPLE[(i * 5 + seed) % PEOPLE.length];
    const city = CITIES[(i * 3 + seed) % CITIES.length];
    const amount = 10 + ((i * 17 + seed) % 90);
    lines.push(`Meeting ${i + 1}, held on ${day} in the ${city} office.`);
    lines.push(`Attendees: ${pick(r, PEOPLE)}, ${pick(r, PEOPLE)}, ${pick(r, PEOPLE)} and ${pick(r, PEOPLE)}.`);
    lines.push(`The committee reviewed the quarterly figures and the open risks of the ${city} programme.`);
    const decision = `Decision ${i + 1}: the committee approved a grant of ${amount},000 euros for the ${city} renovation.`;
    const action = `Action ${i + 1}: ${owner} will report on the ${city} renovation by the next meeting.`;
    lines.push(decision, action, 'The meeting closed after questions from the floor.', '');
    records.push({ day, owner, city, amount, decision, action, n: i + 1 });
  }
  return { text: lines.join('\n'), records };
}

/** The 50 requests: {id, family, source, question, needed: [line texts], whole}. */
export function splitSet() {
  const set = [];
  // Target sizes from 6,800 to 44,800 tokens (5k–50k as measured) (characters / 4), spread over each family.
  const target = (k, n) => 6800 + Math.round((38_000 * k) / Math.max(1, n - 1));
  const PER = { handbook: 104, log: 20.5, catalogue: 26.7, minutes: 107 };
  const count = (family, k, n) => Math.max(20, Math.round(target(k, n) / PER[family]));
  // 12 handbook lookups
  for (let k = 0; k < 12; k += 1) {
    const { text, facts } = handbook(11 + k, count('handbook', k, 12));
    const f = facts[(k * 17 + 5) % facts.length];
    const variants = [
      [`Which form do requests to ${f.team} in the ${f.city} office use, and how long is an approved form archived?`, [f.forms]],
      [`What extension should the ${f.city} ${f.team} office call for escalations?`, [f.escalation]],
      [`When does the ${f.team} desk in ${f.city} open and close?`, [f.hours]],
    ];
    const [question, needed] = variants[k % variants.length];
    set.push({ id: `handbook-${k + 1}`, family: 'handbook', source: text, question, needed, whole: false });
  }
  // 10 log lookups
  for (let k = 0; k < 10; k += 1) {
    const { text, incidents } = serverLog(31 + k, count('log', k, 10));
    const incident = incidents[(k * 3) % incidents.length];
    const question = k % 2 ? `What error code did host ${incident.host} log at ${incident.time}, and what was the message?` : `Which host reported error E${incident.code}, and at what time?`;
    set.push({ id: `log-${k + 1}`, family: 'log', source: text, question, needed: [incident.line], whole: false });
  }
  // 10 catalogue lookups
  for (let k = 0; k < 10; k += 1) {
    const { text, items } = catalogue(51 + k, count('catalogue', (k * 3) % 10, 10));
    const a = items[(k * 37 + 11) % items.length];
    const b = items[(k * 53 + 29) % items.length];
    const question = k % 2 ? `What is the price of ${a.sku} and how many are in stock?` : `Which warehouses hold ${a.sku} and ${b.sku}, and what do they cost?`;
    set.push({ id: `catalogue-${k + 1}`, family: 'catalogue', source: text, question, needed: k % 2 ? [a.line] : [a.line, b.line], whole: false });
  }
  // 8 minutes lookups
  for (let k = 0; k < 8; k += 1) {
    const { text, records } = minutes(71 + k, count('minutes', k, 8));
    const m = records[(k * 19 + 7) % records.length];
    const question = k % 2 ? `Who will report on action ${m.n}, and on what?` : `How large was the grant approved in decision ${m.n}, and for which renovation?`;
    set.push({ id: `minutes-${k + 1}`, family: 'minutes', source: text, question, needed: [k % 2 ? m.action : m.decision], whole: false });
  }
  // 10 whole-document tasks: must not split.
  const wholes = [
    ['handbook', () => handbook(91, count('handbook', 0, 10)).text, 'Summarize this handbook in ten bullet points.'],
    ['handbook', () => handbook(92, count('handbook', 1, 10)).text, 'Translate the handbook above into German.'],
    ['log', () => serverLog(93, count('log', 2, 10)).text, 'How many ERROR lines are in this log, and on which hosts?'],
    ['log', () => serverLog(94, count('log', 3, 10)).text, 'Give an overall assessment of the health of the service over the whole day.'],
    ['catalogue', () => catalogue(95, count('catalogue', 4, 10)).text, 'Rewrite this catalogue as a markdown table sorted by price.'],
    ['catalogue', () => catalogue(96, count('catalogue', 5, 10)).text, 'Count every item with fewer than 20 in stock.'],
    ['minutes', () => minutes(97, count('minutes', 6, 10)).text, 'Summarize the decisions of the committee over the whole year.'],
    ['minutes', () => minutes(98, count('minutes', 7, 10)).text, 'List all actions and their owners.'],
    ['handbook', () => handbook(99, count('handbook', 8, 10)).text, 'Proofread the entire handbook and correct any inconsistencies.'],
    ['minutes', () => minutes(100, count('minutes', 9, 10)).text, 'Translate these minutes into Spanish.'],
  ];
  wholes.forEach(([family, make, question], k) => set.push({ id: `whole-${k + 1}`, family, source: make(), question, needed: [], whole: true }));
  return set;
}
