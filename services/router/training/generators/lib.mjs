// Shared pieces for the corpus generator: a seeded PRNG, sampling helpers and
// slot fillers used by more than one kind of work.

/** mulberry32: tiny, fast and identical on every platform, so the corpus is reproducible. */
export function mulberry32(seed) {
  let a = seed >>> 0;
  return function next() {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** FNV-1a over a string, used to derive per-tag seeds from names. */
export function fnv(str) {
  let h = 0x811c9dc5;
  for (let i = 0; i < str.length; i++) {
    h ^= str.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

export class Rng {
  constructor(seed) {
    this.next = mulberry32(seed);
  }
  float() {
    return this.next();
  }
  int(lo, hi) {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }
  pick(list) {
    return list[Math.floor(this.next() * list.length)];
  }
  chance(p) {
    return this.next() < p;
  }
  sample(list, k) {
    const copy = list.slice();
    const out = [];
    while (out.length < k && copy.length > 0) out.push(copy.splice(Math.floor(this.next() * copy.length), 1)[0]);
    return out;
  }
  /** Picks from [[weight, value], ...]. */
  weighted(pairs) {
    const total = pairs.reduce((s, [w]) => s + w, 0);
    let x = this.next() * total;
    for (const [w, v] of pairs) {
      x -= w;
      if (x < 0) return v;
    }
    return pairs[pairs.length - 1][1];
  }
  money(lo, hi) {
    const v = lo + this.next() * (hi - lo);
    return v.toFixed(2);
  }
  date() {
    const y = this.int(2021, 2025);
    const m = String(this.int(1, 12)).padStart(2, '0');
    const d = String(this.int(1, 28)).padStart(2, '0');
    return `${y}-${m}-${d}`;
  }
  time() {
    return `${String(this.int(0, 23)).padStart(2, '0')}:${String(this.int(0, 59)).padStart(2, '0')}:${String(this.int(0, 59)).padStart(2, '0')}`;
  }
  hex(n) {
    let s = '';
    for (let i = 0; i < n; i++) s += '0123456789abcdef'[this.int(0, 15)];
    return s;
  }
  id(prefix = '') {
    return prefix + this.int(1000, 99999);
  }
}

export const clamp = (d) => Math.max(1, Math.min(5, Math.round(d)));

/** Joins a list as "a, b and c". */
export function andList(items, and = 'and') {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} ${and} ${items[items.length - 1]}`;
}

export const FIRST_NAMES = ['Maria', 'James', 'Aisha', 'Chen Wei', 'Lucas', 'Sofia', 'Raj', 'Emma', 'Kenji', 'Fatima', 'Olivia', 'Mateo', 'Hannah', 'Diego', 'Yuki', 'Noah', 'Amara', 'Liam', 'Ingrid', 'Pierre', 'Ana', 'Tom', 'Priya', 'Jonas', 'Camille', 'Omar', 'Beatriz', 'Sven', 'Mei', 'Carlos'];
export const LAST_NAMES = ['Garcia', 'Smith', 'Okafor', 'Zhang', 'Müller', 'Rossi', 'Patel', 'Johnson', 'Tanaka', 'Haddad', 'Brown', 'Silva', 'Dubois', 'Kowalski', 'Nguyen', 'Schmidt', 'Costa', 'Andersson', 'Kim', 'López'];
export const COMPANIES = ['Acme Corp', 'Northwind Traders', 'Globex', 'Initech', 'Blue Harbor Bank', 'Lumen Health', 'Orbital Retail', 'Pinecrest Logistics', 'Helios Energy', 'Quantum Foods', 'Vertex Analytics', 'Nimbus Cloud', 'Redwood Insurance', 'Sable Media', 'Cobalt Robotics', 'Tidewater Shipping', 'Brightpath Education', 'Meridian Pharma'];
export const PRODUCTS = ['wireless earbuds', 'standing desk', 'espresso machine', 'running shoes', 'smart thermostat', 'yoga mat', 'mechanical keyboard', 'air purifier', 'hiking backpack', 'electric toothbrush', 'noise-cancelling headphones', 'cast iron skillet', 'robot vacuum', 'e-reader', 'portable charger', 'office chair'];
export const CITIES = ['Lisbon', 'Berlin', 'Austin', 'Tokyo', 'Mexico City', 'Toronto', 'Nairobi', 'Singapore', 'Lyon', 'São Paulo', 'Madrid', 'Seoul', 'Chicago', 'Melbourne', 'Oslo', 'Denver', 'Dublin', 'Bangalore'];
export const PROG_LANGS = ['Python', 'TypeScript', 'Go', 'Rust', 'Java', 'C#', 'Kotlin', 'Ruby', 'C++', 'PHP', 'Swift', 'JavaScript', 'Scala', 'Elixir'];

export const person = (r) => `${r.pick(FIRST_NAMES)} ${r.pick(LAST_NAMES)}`;
export const email = (r) => `${r.pick(FIRST_NAMES).toLowerCase().replace(/[^a-z]/g, '')}.${r.pick(LAST_NAMES).toLowerCase().replace(/[^a-z]/g, '')}@${r.pick(['gmail.com', 'outlook.com', 'example.org', 'acme.io', 'proton.me'])}`;

/** Generic assistant system prompts that carry no hint about the kind of work. */
export const GENERIC_SYSTEMS = [
  'You are a helpful assistant.',
  'You are a helpful, concise assistant. Answer in the user\'s language.',
  'You are ChatBot, a large language model. Be accurate and brief.',
  'Follow the user\'s instructions carefully. If something is unclear, state your assumptions.',
  'You are an AI assistant deployed inside our internal tools. Keep answers short unless asked otherwise.',
  'Always answer in Markdown. Use headings when the answer is long.',
  'Eres un asistente útil. Responde de forma clara.',
  'Tu es un assistant utile et précis.',
  'Du bist ein hilfreicher Assistent.',
  'Você é um assistente prestativo.',
  '你是一个乐于助人的助手。',
  'あなたは親切なアシスタントです。',
];

/** Attaches a generic system prompt some of the time. */
export function genericSystem(r, p = 0.3) {
  return r.chance(p) ? r.pick(GENERIC_SYSTEMS) : undefined;
}

export const AGENT_SYSTEMS = [
  'You are an autonomous agent. Use the available tools to complete the task. Think step by step and call one tool at a time.',
  'You are a coding agent working in a sandboxed repository. Tools: read_file, write_file, list_dir, run_shell, search_code.',
  'You are an operations agent with access to tools: http_request, run_sql, send_email, create_ticket, slack_post.',
  'You are a research agent. Tools available: web_search(query), fetch_url(url), take_notes(text).',
  'System: tools are described in JSON schema below. Respond with a tool call or a final answer.\n{"tools":[{"name":"search","parameters":{"q":"string"}},{"name":"calculator","parameters":{"expr":"string"}}]}',
  'You are a workflow runner. Execute each step exactly, report the result of each tool call, and stop on errors.',
  'You are an assistant with long-term memory. Tools: memory.read, memory.write, memory.search.',
];

/** Picks one [difficulty, text] pair and returns both, so each text keeps its own label. */
export function dpick(r, pairs) {
  const [difficulty, text] = r.pick(pairs);
  return { text, difficulty };
}
