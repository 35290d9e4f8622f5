// Templates for the code:* kinds of work.
import { clamp, dpick, PROG_LANGS, genericSystem, AGENT_SYSTEMS, COMPANIES } from './lib.mjs';
import { PY_TRACEBACKS, JS_ERRORS, OTHER_ERRORS, BUGGY_SNIPPETS, INSECURE_SNIPPETS, SQL_SCHEMAS, SQL_QUERIES, EXPLAIN_PLANS, FILE_CONTENTS, REPO_TREES, GREP_OUTPUTS, SHELL_OUTPUTS } from './snippets.mjs';

const fence = (lang, code) => '```' + lang + '\n' + code + '\n```';

// ---------------------------------------------------------------- general_impl
const IMPL_TASKS = [
  [1, 'reverses a string'], [1, 'checks whether a number is even'], [1, 'returns the sum of a list of integers'],
  [1, 'capitalizes the first letter of every word'], [1, 'prints FizzBuzz from 1 to 100'], [1, 'converts Celsius to Fahrenheit'],
  [2, 'parses a CSV line, respecting quoted fields with commas inside'], [2, 'debounces another function'], [2, 'does binary search on a sorted array'],
  [2, 'counts word frequencies in a text and returns the top 10'], [2, 'flattens an arbitrarily nested array'], [2, 'validates an IBAN checksum'],
  [2, 'generates a slug from a title'], [2, 'merges two sorted linked lists'], [2, 'deep-compares two JSON objects'],
  [2, 'removes duplicates from a list while keeping order'], [2, 'converts a number to Roman numerals'],
  [2, 'checks whether two strings are anagrams'], [2, 'formats a byte count as a human-readable size'], [2, 'groups a list of records by a key'],
  [2, 'finds the most common element in an array'], [2, 'rotates a matrix by 90 degrees'], [2, 'validates a date string in YYYY-MM-DD format'],
  [1, 'returns the maximum of three numbers'], [1, 'counts the vowels in a string'],
  [3, 'implements an LRU cache with O(1) get and put'], [3, 'implements a token-bucket rate limiter'], [3, 'builds a trie with prefix autocomplete'],
  [3, 'retries an async call with exponential backoff and jitter'], [3, 'topologically sorts a dependency graph and reports cycles'],
  [3, 'implements an event emitter with on, once and off'], [3, 'parses and evaluates arithmetic expressions with precedence'],
  [3, 'implements a min-heap based priority queue'], [3, 'paginates a REST API with cursor tokens and yields items lazily'],
  [4, 'implements a concurrent web crawler with bounded parallelism, per-host politeness delays and robots.txt support'],
  [4, 'implements a B-tree with insert, delete and range scans'], [4, 'implements a streaming CSV parser with backpressure for multi-gigabyte files'],
  [4, 'implements a persistent job queue with at-least-once delivery, visibility timeouts and dead-lettering'],
  [4, 'implements a backtracking regex engine supporting groups, alternation and lazy quantifiers'],
  [4, 'implements a lock-free single-producer single-consumer ring buffer'],
  [5, 'implements Raft leader election and log replication, tolerating network partitions'],
  [5, 'implements a CRDT (RGA) for collaborative text editing with causal delivery'],
  [5, 'implements an MVCC storage engine with snapshot isolation and garbage collection of old versions'],
  [5, 'implements Hindley-Milner type inference for a small ML-like language'],
  [5, 'implements a generational mark-and-sweep garbage collector for a toy VM'],
];
const IMPL_HIGH = [
  [3, 'calculates medication dosage by body weight with hard upper limits for an infusion pump UI'],
  [3, 'processes card refunds idempotently so a retried request never refunds twice'],
  [4, 'reconciles ledger entries against bank statements and flags mismatches to the cent'],
  [3, 'computes payroll tax withholding for employees across two states'],
];
const CONSTRAINTS = ['It must run in O(n log n) or better.', 'No external libraries.', 'Include unit tests.', 'Make it thread-safe.', 'Handle Unicode input correctly.', 'Make it generic over the element type.', 'Document the public API with docstrings.', 'Support cancellation.', 'Keep memory usage constant regardless of input size.', 'Add type hints everywhere.'];

function implTask(r) {
  if (r.chance(0.1)) {
    const [d, task] = r.pick(IMPL_HIGH);
    return { d, task, stakes: 'high' };
  }
  const [d, task] = r.pick(IMPL_TASKS);
  return { d, task, stakes: 'normal' };
}

export const general_impl = [
  { id: 'write-fn', gen(r) {
    const { d, task, stakes } = implTask(r);
    const lang = r.pick(PROG_LANGS);
    const k = d >= 3 ? r.int(0, 3) : r.int(0, 1);
    const cons = r.sample(CONSTRAINTS, k);
    const lead = r.pick(['Write a', 'Can you write a', 'Please implement a', 'I need a', 'Give me a', 'Create a']);
    const unit = r.pick(['function', 'class', 'module', 'small library']);
    return { text: `${lead} ${lang} ${unit} that ${task}.${cons.length ? ' ' + cons.join(' ') : ''}`, system: genericSystem(r), difficulty: clamp(d + (k >= 2 ? 1 : 0)), stakes };
  } },
  { id: 'how-impl', gen(r) {
    const { d, task, stakes } = implTask(r);
    const lang = r.pick(PROG_LANGS);
    return { text: `How would I write code in ${lang} that ${task}? Show the full implementation and explain the tricky parts.`, difficulty: d, stakes };
  } },
  { id: 'spec-impl', gen(r) {
    const lang = r.pick(['TypeScript', 'Python', 'Go', 'Java']);
    const entity = r.pick(['Invoice', 'Reservation', 'Shipment', 'Subscription', 'Ticket', 'Coupon']);
    const fields = r.sample(['id: string', 'createdAt: Date', 'status: enum', 'amount: decimal', 'ownerId: string', 'expiresAt: Date', 'tags: string[]', 'version: int'], r.int(3, 6));
    const rules = r.sample([`status can only move forward (draft → open → closed)`, 'amount must be positive and at most 2 decimals', 'expired records are read-only', 'every change bumps version for optimistic locking', 'tags are unique and lowercase', 'owner can be reassigned only while open'], r.int(1, 4));
    const d = 2 + (rules.length >= 3 ? 1 : 0) + (fields.length >= 6 ? 1 : 0);
    return { text: `Implement a ${entity} domain model in ${lang}.\nFields:\n${fields.map((f) => '- ' + f).join('\n')}\nRules:\n${rules.map((x, i) => `${i + 1}. ${x}`).join('\n')}\nExpose create/update methods that enforce the rules and throw typed errors.`, difficulty: d };
  } },
  { id: 'signature', gen(r) {
    const sigs = [
      [2, 'def chunk(items: list[T], size: int) -> list[list[T]]:', 'python'],
      [2, 'function groupBy<T, K extends PropertyKey>(xs: T[], key: (x: T) => K): Record<K, T[]>', 'ts'],
      [3, 'func MergeIntervals(in [][2]int) [][2]int', 'go'],
      [3, 'pub fn parse_duration(s: &str) -> Result<std::time::Duration, ParseError>', 'rust'],
      [4, 'public <K, V> Map<K, V> memoizeWithTtl(Function<K, V> fn, Duration ttl, int maxEntries)', 'java'],
      [2, 'def is_palindrome(s: str) -> bool:', 'python'],
      [3, 'async function mapLimit<T, R>(items: T[], limit: number, fn: (t: T) => Promise<R>): Promise<R[]>', 'ts'],
    ];
    const [d, sig, l] = r.pick(sigs);
    return { text: `${r.pick(['Fill in the body:', 'Implement this:', 'Complete the implementation, keep the signature:', 'Write the code for'])}\n${fence(l, sig + '\n    ...')}\n${r.pick(['', 'Add a couple of tests.', 'Explain complexity.', 'Edge cases matter.'])}`.trim(), difficulty: d };
  } },
  { id: 'api-endpoint', gen(r) {
    const fw = r.pick(['Express', 'FastAPI', 'Spring Boot', 'Gin', 'Django REST framework', 'NestJS', 'Rails', 'ASP.NET Core']);
    const res = r.pick(['todos', 'bookings', 'users', 'comments', 'products', 'webhooks']);
    const extras = r.sample(['pagination', 'input validation', 'JWT auth', 'rate limiting', 'soft delete', 'ETag caching', 'OpenAPI docs'], r.int(0, 3));
    return { text: `Build a CRUD REST API for ${res} using ${fw}${extras.length ? ' with ' + extras.join(', ') : ''}. Use an in-memory store for now.`, difficulty: clamp(2 + extras.length * 0.5) };
  } },
  { id: 'cli-tool', gen(r) {
    const q = dpick(r, [[2, 'a CLI that renames photos by their EXIF date'], [1, 'a command-line todo app that stores data in a JSON file'], [3, 'a script that watches a folder and uploads new files to S3 with retries'], [2, 'a CLI that diffs two JSON files and prints a colored report'], [3, 'a tool that converts Markdown to HTML with a table of contents and syntax highlighting'], [1, 'a password generator CLI with flags for length and symbols']]);
    return { text: `Write ${q.text} in ${r.pick(PROG_LANGS)}. ${r.pick(['Keep it in one file.', 'Use argparse-style flags.', 'Add a --dry-run option.', ''])}`.trim(), system: genericSystem(r), difficulty: q.difficulty };
  } },
  { id: 'translate-code', gen(r) {
    const s = r.pick(BUGGY_SNIPPETS.filter((b) => b.lang !== 'c'));
    const to = r.pick(['Go', 'Rust', 'Kotlin', 'Python', 'TypeScript', 'C#']);
    return { text: `Port this ${s.lang} snippet to idiomatic ${to}, fixing anything that looks wrong along the way:\n${fence(s.lang, s.code)}`, difficulty: 2 };
  } },
  { id: 'oneliner', gen(r) {
    const qs = ['python one liner to dedupe a list keeping order', 'js: sort array of objects by date desc', 'regex for a US zip code', 'how to get the last element of a list in python', 'kotlin data class for a point with x y', 'go: read a file into a string', 'rust: convert String to &str', 'c# linq to sum prices', 'typescript type for a function returning a promise of string', 'java stream to collect a map from a list'];
    return { text: r.pick(qs), difficulty: 1 };
  } },
  { id: 'design-impl', gen(r) {
    const sys = r.pick(['a distributed lock service on top of etcd with fencing tokens', 'a multi-tenant feature-flag SDK with local evaluation and streaming updates', 'a sharded counter that survives node failures with exactly-once increments', 'a consistent-hashing load balancer with virtual nodes and health checks', 'a write-ahead log with group commit and crash recovery']);
    return { text: `Design and implement ${sys}. Explain the failure modes you handle and provide the core code in ${r.pick(['Go', 'Rust', 'Java', 'C++'])}.`, difficulty: 5, system: genericSystem(r) };
  } },
  { id: 'es', lang: 'es', gen(r) {
    const { d, task } = implTask(r);
    const lang = r.pick(PROG_LANGS);
    const t = { 'reverses a string': 'invierta una cadena', 'implements an LRU cache with O(1) get and put': 'implemente una caché LRU con get y put en O(1)', 'does binary search on a sorted array': 'haga búsqueda binaria en un arreglo ordenado', 'implements a token-bucket rate limiter': 'implemente un limitador de tasa tipo token bucket' };
    const task2 = t[task] ?? r.pick(Object.values(t));
    const dd = t[task] ? d : (task2.includes('LRU') || task2.includes('token') ? 3 : task2.includes('binaria') ? 2 : 1);
    return { text: `${r.pick(['Escribe', 'Necesito', 'Hazme'])} una función en ${lang} que ${task2}. ${r.pick(['Incluye pruebas.', 'Explica la complejidad.', ''])}`.trim(), difficulty: dd };
  } },
  { id: 'fr', lang: 'fr', gen(r) {
    const tasks = [[1, 'inverse une chaîne de caractères'], [2, 'fusionne deux listes triées'], [3, 'implémente un cache LRU thread-safe'], [4, 'implémente un parseur JSON en streaming avec gestion des erreurs de position'], [5, "implémente l'algorithme de consensus Raft avec réplication du journal"]];
    const [d, task] = r.pick(tasks);
    return { text: `Écris une fonction ${r.pick(PROG_LANGS)} qui ${task}. ${r.pick(['Ajoute des tests unitaires.', 'Pas de bibliothèques externes.', ''])}`.trim(), difficulty: d };
  } },
  { id: 'de', lang: 'de', gen(r) {
    const tasks = [[1, 'einen String umdreht'], [2, 'eine Liste nach Datum sortiert und Duplikate entfernt'], [3, 'einen Rate Limiter nach dem Token-Bucket-Prinzip umsetzt'], [4, 'einen nebenläufigen Web-Crawler mit begrenzter Parallelität umsetzt']];
    const [d, task] = r.pick(tasks);
    return { text: `Schreib mir eine ${r.pick(PROG_LANGS)}-Funktion, die ${task}. ${r.pick(['Mit Unit-Tests bitte.', 'Kommentiere den Code.', ''])}`.trim(), difficulty: d };
  } },
  { id: 'pt', lang: 'pt', gen(r) {
    const tasks = [[1, 'verifique se um número é primo'], [2, 'valide um CPF'], [3, 'implemente uma fila de prioridade com heap'], [4, 'implemente um cliente HTTP com retry, circuit breaker e timeout']];
    const [d, task] = r.pick(tasks);
    return { text: `Crie uma função em ${r.pick(PROG_LANGS)} que ${task}.`, difficulty: d };
  } },
  { id: 'zh', lang: 'zh', gen(r) {
    const tasks = [[1, '反转一个字符串'], [2, '实现二分查找'], [3, '实现一个LRU缓存，get和put都是O(1)'], [5, '实现Raft共识算法的领导者选举和日志复制']];
    const [d, task] = r.pick(tasks);
    return { text: `请用${r.pick(PROG_LANGS)}写一个函数，${task}。${r.pick(['需要单元测试。', '请解释时间复杂度。', ''])}`, difficulty: d };
  } },
  { id: 'ja', lang: 'ja', gen(r) {
    const tasks = [[1, '文字列を逆順にする関数'], [2, 'CSVの1行をパースする関数'], [3, 'トークンバケット方式のレートリミッター'], [4, '並行処理でWebクローラー']];
    const [d, task] = r.pick(tasks);
    return { text: `${r.pick(PROG_LANGS)}で${task}を実装してください。${r.pick(['テストも書いてください。', ''])}`, difficulty: d };
  } },
];

// ------------------------------------------------------------------- debugging
const ALL_ERRORS = [...PY_TRACEBACKS, ...JS_ERRORS, ...OTHER_ERRORS];
const PROD_CTX = ['This is happening in production and checkout is failing for every customer.', 'Payments are failing in prod right now, need a fix fast.', 'This crashes the patient-records service in production.', 'Our trading engine crashes on startup since the last deploy.'];

export const debugging = [
  { id: 'trace', gen(r) {
    const e = r.pick(ALL_ERRORS);
    const lead = r.pick(['I keep getting this error:', 'Why does this happen?', 'Can you help me debug this?', 'Getting this when I run the app:', 'what does this mean and how do I fix it', 'Stack trace below. Any idea?', 'help']);
    const prod = r.chance(0.15);
    const d = e.includes('concurrent') || e.includes('heap out of memory') || e.includes('Segmentation') ? 4 : e.split('\n').length > 5 ? 3 : 2;
    return { text: `${lead}\n\n${e}${prod ? '\n\n' + r.pick(PROD_CTX) : ''}`, system: genericSystem(r), difficulty: d, stakes: prod ? 'high' : 'normal' };
  } },
  { id: 'buggy-code', gen(r) {
    const s = r.pick(BUGGY_SNIPPETS);
    const symptom = r.pick(['returns the wrong result', 'sometimes returns an empty list', 'crashes randomly', 'gives a wrong average', 'the counter never increases past 1', 'compiles but behaves weirdly', 'fails the tests']);
    // Concurrency and memory bugs (goroutines, async, C buffers) are harder to see.
    const hard = s.lang === 'go' || s.lang === 'c' || s.code.includes('async');
    return { text: `This code ${symptom}. What's the bug?\n${fence(s.lang, s.code)}`, difficulty: hard ? 3 : 2 };
  } },
  { id: 'test-fail', gen(r) {
    const out = r.pick(SHELL_OUTPUTS.filter((s) => s.includes('FAIL') || s.includes('test')));
    return { text: `My unit test started failing after I refactored the pricing code. Output:\n${out}\nThe discount is 10% of 99.99. Where is the rounding going wrong?`, difficulty: 2 };
  } },
  { id: 'flaky', gen(r) {
    const what = r.pick(['an integration test that passes locally but fails about 1 in 5 runs on CI', 'a Go service where two goroutines occasionally update the same map and the process dies', 'a memory leak in our Node.js websocket server: RSS grows ~200MB per hour until OOM', 'a deadlock that shows up only under load in our Java thread pool', 'a heisenbug where adding a log line makes the crash disappear', 'an off-by-one in date handling that only appears at DST transitions']);
    const extra = r.chance(0.5) ? '\n' + r.pick(ALL_ERRORS) : '';
    const dist = r.chance(0.3);
    return { text: `I'm debugging ${what}.${dist ? ' It only happens across our 3-region deployment with eventual consistency between replicas.' : ''} How do I track it down?${extra}`, difficulty: dist ? 5 : 4 };
  } },
  { id: 'wrong-output', gen(r) {
    const cases = [
      ['python', 'print(0.1 + 0.2 == 0.3)', 'prints False'],
      ['javascript', "['10', '10', '10'].map(parseInt)", 'returns [10, NaN, 2]'],
      ['javascript', 'const d = new Date("2024-03-10"); console.log(d.getDate());', 'prints 9 instead of 10 for some users'],
      ['sql', "SELECT COUNT(*) FROM users WHERE deleted_at != NULL;", 'always returns 0'],
      ['python', 'for i in range(len(xs)):\n    if xs[i] < 0:\n        xs.remove(xs[i])', 'raises IndexError sometimes'],
      ['go', 'var err error\nif x, err := f(); err != nil { return err }\nreturn err', 'error is always nil'],
    ];
    const [l, code, sym] = r.pick(cases);
    return { text: `Why does this ${sym}?\n${fence(l, code)}`, difficulty: 2 };
  } },
  { id: 'log-lines', gen(r) {
    const lines = [];
    for (let i = 0; i < r.int(4, 9); i++) lines.push(`${r.date()}T${r.time()}Z ${r.pick(['ERROR', 'WARN', 'INFO', 'ERROR'])} ${r.pick(['worker', 'api', 'scheduler'])}: ${r.pick(['retrying job 8812 after timeout', 'null reference in OrderMapper.toDto', 'failed to acquire lock orders:42', 'upstream returned 502', 'deserialization failed: unexpected field "discountCode"', 'connection reset by peer'])}`);
    return { text: `Here's the log from the failing job. What's the root cause in our code?\n${lines.join('\n')}`, difficulty: 3 };
  } },
  { id: 'agent-debug', gen(r) {
    const out = r.pick(SHELL_OUTPUTS.filter((s) => s.includes('FAIL')).concat(PY_TRACEBACKS.slice(0, 3), JS_ERRORS.slice(0, 2)));
    return { text: r.pick(['Fix the failing test in the cart module. Run the tests again after your change.', 'The build is red. Find the bug from this output and patch it.', 'That error came from our code, not the library. Debug it and propose the fix.', 'Re-run after your fix; it still fails. What else could cause this?']), system: r.pick([AGENT_SYSTEMS[1], undefined]), turn: 'agent', tool_result: out, turns: r.int(3, 12), difficulty: 3 };
  } },
  { id: 'compile', gen(r) {
    const e = r.pick(OTHER_ERRORS.filter((x) => x.includes('error[') || x.includes('lateinit')).concat(JS_ERRORS.filter((x) => x.startsWith('TS'))));
    return { text: `Compiler is angry at me:\n${e}\nHow do I make it happy without hacks?`, difficulty: 2 };
  } },
  { id: 'es', lang: 'es', gen(r) {
    const e = r.pick(ALL_ERRORS);
    return { text: `${r.pick(['Me sale este error y no sé por qué:', '¿Por qué falla esto?', 'Ayuda, mi programa se cae con:'])}\n${e}`, difficulty: 2, stakes: 'normal' };
  } },
  { id: 'fr', lang: 'fr', gen(r) {
    return { text: `${r.pick(["J'ai cette erreur quand je lance mon script :", 'Pourquoi ce code plante ?', 'Impossible de comprendre ce bug :'])}\n${r.pick(ALL_ERRORS)}`, difficulty: 2 };
  } },
  { id: 'de', lang: 'de', gen(r) {
    return { text: `${r.pick(['Ich bekomme diesen Fehler:', 'Mein Test schlägt fehl, warum?', 'Kannst du mir beim Debuggen helfen?'])}\n${r.pick(ALL_ERRORS)}`, difficulty: 2 };
  } },
  { id: 'pt', lang: 'pt', gen(r) {
    const s = r.pick(BUGGY_SNIPPETS);
    return { text: `Esse código está com bug, ${r.pick(['o resultado sai errado', 'às vezes trava', 'não passa nos testes'])}. Pode achar o erro?\n${fence(s.lang, s.code)}`, difficulty: 2 };
  } },
  { id: 'zh', lang: 'zh', gen(r) {
    return { text: `${r.pick(['运行的时候报错了，怎么解决？', '这个错误是什么意思？', '帮我看看这个bug'])}\n${r.pick(ALL_ERRORS)}`, difficulty: 2 };
  } },
  { id: 'ja', lang: 'ja', gen(r) {
    return { text: `${r.pick(['このエラーが出ます。原因は何ですか？', 'テストが失敗します。デバッグを手伝ってください。'])}\n${r.pick(ALL_ERRORS)}`, difficulty: 2 };
  } },
];

// ------------------------------------------------------------- file_read_write
export const file_read_write = [
  { id: 'agent-edit', gen(r) {
    const f = r.pick(FILE_CONTENTS);
    const change = r.pick(['change the default timeout to 30 seconds', 'bump the version to the next minor', 'turn DEBUG off and add example.com to the allowed hosts', 'add a SENTRY_DSN entry', 'add a "Deployment" section', 'add a lint script', 'enable the newCheckout flag']);
    return { text: `Open ${f.path} and ${change}. Save the file when done.`, system: AGENT_SYSTEMS[1], turn: 'agent', tool_result: `read_file("${f.path}") ->\n${f.body}`, turns: r.int(2, 8), difficulty: 2 };
  } },
  { id: 'create-file', gen(r) {
    const what = r.pick(['tests/test_utils.py with pytest fixtures for a temp directory', 'a CONTRIBUTING.md describing our branch naming and review rules', 'src/lib/logger.ts exporting a pino logger', 'a .gitignore for a Python + Node project', 'docs/adr/0007-use-postgres.md using the ADR template', 'a Makefile with build, test and lint targets']);
    return { text: `Create ${what}. Write it to disk, don't just print it.`, system: r.chance(0.6) ? AGENT_SYSTEMS[1] : undefined, turn: r.chance(0.5) ? 'agent' : 'chat', difficulty: 2 };
  } },
  { id: 'read-summ', gen(r) {
    const f = r.pick(FILE_CONTENTS);
    return { text: `Read ${f.path} and tell me which settings I need to change for production, then write the updated version back.`, turn: 'agent', system: AGENT_SYSTEMS[1], tool_result: f.body, turns: r.int(2, 6), difficulty: 2 };
  } },
  { id: 'io-code', gen(r) {
    const q = r.pick([
      [2, 'How do I read a 20 GB log file line by line in Node.js without loading it all into memory?'],
      [2, 'Python: write a list of dicts to a CSV file with a header row, UTF-8 with BOM for Excel.'],
      [1, 'how to append text to a file in python'],
      [3, 'Write Go code that atomically replaces a config file (write temp file, fsync, rename) so readers never see a partial file.'],
      [2, 'Java: read all files in a directory recursively and copy the .json ones into another folder.'],
      [3, 'Rust: memory-map a large binary file and parse fixed-size records from it.'],
      [2, 'C#: stream a file upload to disk in chunks and compute its SHA-256 while writing.'],
      [1, 'read a json file in javascript'],
      [3, 'Safely write to the same file from several processes in Python — file locking on Linux and Windows.'],
    ]);
    return { text: q[1], system: genericSystem(r), difficulty: q[0] };
  } },
  { id: 'patch', gen(r) {
    const f = r.pick(FILE_CONTENTS);
    return { text: `Apply this change to ${f.path}: replace the hardcoded values with environment variables, keep the same defaults, and show me the diff you wrote.`, turn: 'agent', system: AGENT_SYSTEMS[1], tool_result: `write_file("${f.path}") -> ok (${f.body.length} bytes)`, turns: r.int(4, 10), difficulty: 2 };
  } },
  { id: 'multi-file', gen(r) {
    const n = r.int(3, 12);
    return { text: `Rename the function getUserById to findUser in all ${n} files under src/users/, update the imports, and write each file back. Don't touch the tests yet.`, turn: 'agent', system: AGENT_SYSTEMS[1], tool_result: r.pick(GREP_OUTPUTS), turns: r.int(3, 15), difficulty: n > 8 ? 3 : 2 };
  } },
  { id: 'save-output', gen(r) {
    return { text: `Save the results above to ${r.pick(['results/report.json', 'out/summary.csv', 'notes/today.md', 'data/cleaned.parquet'])} and create the folder if it doesn't exist.`, turn: 'agent', tool_result: `{"rows": ${r.int(10, 900)}, "status": "ok"}`, turns: r.int(4, 12), difficulty: 1 };
  } },
  { id: 'config-edit-danger', gen(r) {
    return { text: `Edit /etc/${r.pick(['nginx/nginx.conf', 'ssh/sshd_config', 'app/prod.env'])} on the production box to ${r.pick(['disable password login', 'raise the worker limit', 'rotate the database password'])} and write it back. Make a backup first.`, turn: 'agent', system: AGENT_SYSTEMS[1], tool_result: 'read_file -> 214 lines', turns: r.int(2, 6), difficulty: 3, stakes: 'high' };
  } },
  { id: 'es', lang: 'es', gen(r) {
    const f = r.pick(FILE_CONTENTS);
    return { text: `Lee el archivo ${f.path} y ${r.pick(['cambia el puerto a 9090', 'añade una variable LOG_LEVEL', 'actualiza la versión'])}. Guarda los cambios.`, turn: 'agent', system: AGENT_SYSTEMS[1], tool_result: f.body, turns: r.int(2, 6), difficulty: 2 };
  } },
  { id: 'fr', lang: 'fr', gen(r) {
    const f = r.pick(FILE_CONTENTS);
    return { text: `Ouvre ${f.path}, ${r.pick(['modifie le timeout à 30 secondes', 'ajoute une section Installation', 'désactive le mode debug'])} puis enregistre le fichier.`, turn: 'agent', tool_result: f.body, turns: r.int(2, 6), difficulty: 2 };
  } },
  { id: 'de', lang: 'de', gen(r) {
    return { text: `Lies die Datei ${r.pick(FILE_CONTENTS).path} ein und schreib eine bereinigte Version nach ${r.pick(['out/clean.txt', 'backup/config.bak'])}.`, turn: 'agent', system: AGENT_SYSTEMS[1], turns: r.int(2, 5), difficulty: 2 };
  } },
  { id: 'pt', lang: 'pt', gen(r) {
    return { text: `Crie o arquivo ${r.pick(['src/utils/date.ts', 'docs/setup.md', 'scripts/seed.py'])} com ${r.pick(['funções de formatação de data', 'as instruções de instalação', 'dados de exemplo'])} e salve no repositório.`, turn: r.pick(['chat', 'agent']), difficulty: 2 };
  } },
  { id: 'ja', lang: 'ja', gen(r) {
    const f = r.pick(FILE_CONTENTS);
    return { text: `${f.path}を読み込んで、設定値を環境変数に置き換えてファイルに書き戻してください。`, turn: 'agent', tool_result: f.body, turns: r.int(2, 6), difficulty: 2 };
  } },
];

// ------------------------------------------------------------ review_security
export const review_security = [
  { id: 'review-snippet', gen(r) {
    const s = r.pick(INSECURE_SNIPPETS);
    const lead = r.pick(['Can you review this code for security issues?', 'Security review please, this goes to prod tomorrow:', 'Is this safe?', 'Any vulnerabilities here?', 'Code review: what would you flag?', 'Audit this handler for OWASP Top 10 problems.']);
    // Logic flaws (races, missing authz) take more thought than pattern bugs like injection.
    const subtle = s.issue === 'race condition' || s.issue === 'missing authorization' || s.issue === 'jwt verification';
    return { text: `${lead}\n${fence(s.lang, s.code)}`, system: genericSystem(r), difficulty: subtle ? 3 : 2, stakes: 'high' };
  } },
  { id: 'pr-diff', gen(r) {
    const s = r.pick(INSECURE_SNIPPETS);
    const diff = s.code.split('\n').map((l) => '+' + l).join('\n');
    return { text: `Review this pull request diff. Point out security problems and suggest fixes inline.\n\`\`\`diff\n--- a/handler\n+++ b/handler\n@@ -10,3 +10,${s.code.split('\n').length} @@\n${diff}\n\`\`\``, difficulty: 3, stakes: 'high' };
  } },
  { id: 'review-general', gen(r) {
    const s = r.pick(BUGGY_SNIPPETS);
    return { text: `Do a code review of this ${s.lang}. Focus on correctness, security and maintainability; rate severity for each finding.\n${fence(s.lang, s.code)}`, difficulty: 2, stakes: r.chance(0.3) ? 'high' : 'normal' };
  } },
  { id: 'crypto', gen(r) {
    const q = r.pick([
      'We store passwords with SHA-256 and a global salt. Review our auth module and tell me what to change.',
      'Review our custom AES-ECB encryption of credit card numbers before we ship it.',
      'Is it OK that our session tokens are generated with Math.random()? Review this:\n```js\nconst token = Math.random().toString(36).slice(2);\n```',
      'Our JWTs are signed with HS256 and the secret is "changeme". Review the token verification code for issues.',
      'Review this TLS client config: InsecureSkipVerify is true in the payment gateway client.',
    ]);
    return { text: q, difficulty: 3, stakes: 'high' };
  } },
  { id: 'review-large', gen(r) {
    const n = r.int(400, 3000);
    return { text: `Perform a security-focused code review of our ${r.pick(['OAuth2 authorization server', 'multi-tenant file upload service', 'payment webhook processor', 'admin dashboard API'])} (${n} lines attached). Look for authz bypasses, injection, SSRF, unsafe deserialization, and tenant isolation bugs. Produce findings with CWE ids and severity.\n${fence(r.pick(INSECURE_SNIPPETS).lang, r.pick(INSECURE_SNIPPETS).code)}\n...`, difficulty: 4, stakes: 'high' };
  } },
  { id: 'agent-review', gen(r) {
    return { text: r.pick(['Review the files flagged by the search for SQL injection and propose patches.', 'Check these call sites for unsafe token parsing and write up the findings by severity.', 'Go through the matches and tell me which ones are exploitable and why.']), turn: 'agent', system: r.pick([AGENT_SYSTEMS[1], undefined]), tool_result: r.pick(GREP_OUTPUTS), turns: r.int(3, 9), difficulty: 3, stakes: 'high' };
  } },
  { id: 'es', lang: 'es', gen(r) {
    const s = r.pick(INSECURE_SNIPPETS);
    return { text: `Revisa este código y dime si tiene vulnerabilidades de seguridad:\n${fence(s.lang, s.code)}`, difficulty: 2, stakes: 'high' };
  } },
  { id: 'fr', lang: 'fr', gen(r) {
    const s = r.pick(INSECURE_SNIPPETS);
    return { text: `Peux-tu faire une revue de sécurité de ce code ? Je crains une faille.\n${fence(s.lang, s.code)}`, difficulty: 2, stakes: 'high' };
  } },
  { id: 'de', lang: 'de', gen(r) {
    const s = r.pick(INSECURE_SNIPPETS);
    return { text: `Bitte Code-Review mit Fokus auf Sicherheitslücken:\n${fence(s.lang, s.code)}`, difficulty: 2, stakes: 'high' };
  } },
  { id: 'pt', lang: 'pt', gen(r) {
    const s = r.pick(INSECURE_SNIPPETS);
    return { text: `Faça um code review de segurança deste trecho:\n${fence(s.lang, s.code)}`, difficulty: 2, stakes: 'high' };
  } },
  { id: 'zh', lang: 'zh', gen(r) {
    const s = r.pick(INSECURE_SNIPPETS);
    return { text: `帮我审查一下这段代码有没有安全漏洞：\n${fence(s.lang, s.code)}`, difficulty: 2, stakes: 'high' };
  } },
];

// ------------------------------------------------------------- shell_execution
const SHELL_TASKS = [
  [1, 'list all files in the current directory including hidden ones'], [1, 'show how much disk space is left'],
  [2, 'find all files larger than 100MB under /var and sort them by size'], [2, 'kill whatever process is listening on port 3000'],
  [2, 'compress every log file older than 7 days and delete the originals'], [2, 'count lines of code per file extension in this repo'],
  [2, 'squash the last 3 git commits into one'], [2, 'replace "http://" with "https://" in every .md file recursively'],
  [3, 'rsync a directory to a remote host over ssh, resuming partial transfers and excluding node_modules'],
  [3, 'tail the nginx access log and print the top 10 IPs by request count every minute'],
  [3, 'recover a file I deleted in git three commits ago'],
  [3, 'batch-rename 2,000 photos to YYYY-MM-DD_HHMMSS.jpg from their EXIF data using exiftool'],
];

export const shell_execution = [
  { id: 'howto', gen(r) {
    const [d, t] = r.pick(SHELL_TASKS);
    return { text: `${r.pick(['What command do I run to', 'bash one-liner to', 'How can I', 'Give me the shell command to', 'zsh: how to'])} ${t}?`, system: genericSystem(r), difficulty: d };
  } },
  { id: 'agent-run', gen(r) {
    const out = r.pick(SHELL_OUTPUTS);
    return { text: r.pick(['Run the command and tell me what you find.', 'Free up disk space on this box; check what is using it first.', 'Run git status and fix the divergence by rebasing onto origin.', 'Find and kill the process on port 3000, then start the dev server.', 'Run the test suite and report which tests failed.']), system: AGENT_SYSTEMS[1], turn: 'agent', tool_result: out, turns: r.int(2, 10), difficulty: 2 };
  } },
  { id: 'script', gen(r) {
    const t = r.pick(['backs up a Postgres database nightly, keeps 14 days of dumps and uploads them to S3', 'checks a list of URLs and reports which return non-200', 'sets up a new Ubuntu dev machine (git, docker, node, zsh)', 'monitors a directory and restarts a service when a file changes', 'parses an Apache log and emails a daily 5xx summary']);
    return { text: `Write a bash script that ${t}. Use set -euo pipefail and make it idempotent.`, difficulty: 3 };
  } },
  { id: 'explain-cmd', gen(r) {
    const cmds = ['find . -name "*.pyc" -exec rm -f {} +', "awk -F, '{s+=$3} END {print s}' sales.csv", 'xargs -P 8 -n 1 curl -sO < urls.txt', 'sed -i.bak "s/foo/bar/g" *.conf', 'chmod -R 755 /var/www && chown -R www-data: /var/www', 'git reset --hard HEAD~1', 'ssh -L 5432:db.internal:5432 bastion'];
    return { text: `What does this command do exactly? \`${r.pick(cmds)}\``, difficulty: 1 };
  } },
  { id: 'prod-shell', gen(r) {
    return { text: `I'm ssh'd into the production database server. ${r.pick(['Disk is at 98%.', 'The WAL directory is huge.', 'The app user cannot write to /data.'])} Give me the exact commands to fix it safely without losing data.`, tool_result: r.chance(0.5) ? SHELL_OUTPUTS[0] : undefined, turn: r.chance(0.5) ? 'agent' : 'chat', difficulty: 3, stakes: 'high' };
  } },
  { id: 'powershell', gen(r) {
    return { text: `PowerShell: ${r.pick(['list services that are stopped but set to automatic', 'get the 20 largest files on C:', 'export AD users created this month to CSV', 'rename all .jpeg to .jpg in a folder'])}`, difficulty: 2 };
  } },
  { id: 'es', lang: 'es', gen(r) {
    const q = dpick(r, [[1, 'ver qué proceso usa el puerto 8080'], [2, 'buscar archivos de más de 1GB y ordenarlos por tamaño'], [1, 'comprimir una carpeta en tar.gz'], [1, 'deshacer el último commit de git'], [3, 'sincronizar una carpeta con un servidor remoto por ssh reanudando transferencias']]);
    return { text: `¿Qué comando uso para ${q.text}?`, difficulty: q.difficulty };
  } },
  { id: 'fr', lang: 'fr', gen(r) {
    return { text: `${r.pick(['Donne-moi la commande bash pour', 'Quelle commande Linux permet de', 'Comment faire en ligne de commande pour'])} ${r.pick(['supprimer les fichiers temporaires de plus de 30 jours', 'trouver les fichiers qui contiennent "TODO"', 'changer les permissions de tout un dossier', 'voir quel processus utilise le port 8080', 'compresser un dossier en tar.gz', 'annuler le dernier commit git', 'afficher les 20 plus gros fichiers'])} ?`, difficulty: 2 };
  } },
  { id: 'de', lang: 'de', gen(r) {
    return { text: `Führ bitte \`${r.pick(['df -h', 'ls -la', 'git status', 'du -sh /var/log/*'])}\` aus und sag mir, was auffällt.`, turn: 'agent', tool_result: r.pick(SHELL_OUTPUTS), turns: r.int(2, 6), difficulty: 1 };
  } },
  { id: 'pt', lang: 'pt', gen(r) {
    return { text: `Como faço no terminal para ${r.pick(['matar o processo na porta 3000', 'listar arquivos ocultos', 'renomear vários arquivos de uma vez', 'ver o uso de memória'])}?`, difficulty: 1 };
  } },
  { id: 'ja', lang: 'ja', gen(r) {
    return { text: r.pick(['100MB以上のファイルを探すコマンドを教えて', 'ポート3000を使っているプロセスを終了するには？', 'gitで直前のコミットを取り消すコマンドは？', 'ディレクトリ内のファイルを一括でリネームするシェルコマンドは？', 'ログファイルからエラー行だけを抽出するには？', 'tarでフォルダを圧縮するコマンドを教えて', `\`${r.pick(['df -h', 'ls -la', 'git status'])}\`を実行して結果を説明して`]), turn: r.pick(['chat', 'chat', 'agent']), difficulty: 1 };
  } },
  { id: 'zh', lang: 'zh', gen(r) {
    return dpick(r, [[1, '用什么命令可以查看磁盘占用？'], [2, '怎么用shell批量重命名文件？'], [3, '帮我写一个bash脚本每天备份数据库，保留14天'], [1, '如何用grep递归搜索包含某个字符串的文件？'], [1, '杀掉占用8080端口的进程的命令是什么？'], [2, '怎么用find删除7天前的日志？'], [1, '解释一下这个命令：xargs -P 8 -n 1 curl -sO < urls.txt']]);
  } },
];

// ------------------------------------------------------------------ frontend_ui
const UI_TASKS = [
  [1, 'center a div horizontally and vertically'], [1, 'make a button with rounded corners and a hover effect'],
  [2, 'build a responsive navbar that collapses into a hamburger menu on mobile'], [2, 'add a dark mode toggle that remembers the choice'],
  [2, 'create a modal dialog that traps focus and closes on Escape'], [2, 'make a pricing table with three tiers and a highlighted plan'],
  [3, 'build a multi-step signup form with validation and a progress indicator'], [3, 'implement an accessible combobox with keyboard navigation and ARIA roles'],
  [3, 'create a drag-and-drop kanban board'], [3, 'build a data table with sorting, filtering and pagination'],
  [4, 'render a virtualized list of 100k rows with variable row heights and smooth scrolling'],
  [4, 'build a design-system component library with theming tokens, SSR support and visual regression tests'],
  [4, 'implement optimistic updates with rollback and offline sync in the UI'],
];
const UI_FW = ['React', 'React with Tailwind', 'Vue 3', 'Svelte', 'Angular', 'plain HTML/CSS', 'Next.js', 'SwiftUI', 'Flutter', 'Jetpack Compose'];

export const frontend_ui = [
  { id: 'build', gen(r) {
    const [d, t] = r.pick(UI_TASKS);
    const fw = r.pick(UI_FW);
    const text = r.pick([`How do I ${t} in ${fw}?`, `${fw}: ${t}`, `Using ${fw}, ${t}.`, `Show me how to ${t} with ${fw}.`, `${t} — ${fw}, please`]);
    return { text, system: genericSystem(r), difficulty: d };
  } },
  { id: 'component', gen(r) {
    const [d, t] = r.pick(UI_TASKS);
    return { text: `Write a ${r.pick(UI_FW)} component: ${t}. ${r.pick(['Use TypeScript.', 'Mobile first.', 'Must pass WCAG AA contrast.', 'Match our Figma: 8px grid, Inter font, primary #4F46E5.', ''])}`.trim(), difficulty: d };
  } },
  { id: 'css-bug', gen(r) {
    const bugs = ['my flexbox children overflow the container on small screens', 'z-index on the dropdown is ignored and it renders under the header', 'position: sticky header stops sticking inside this scroll container', 'the grid layout collapses into one column in Safari', 'text gets cut off with an ellipsis only in Firefox', 'the page jumps when the scrollbar appears'];
    return { text: `CSS question: ${r.pick(bugs)}.\n${fence('css', `.container { display: flex; gap: 16px; }\n.card { flex: 1 0 320px; overflow: hidden; }`)}`, difficulty: 2 };
  } },
  { id: 'react-state', gen(r) {
    return dpick(r, [[2, 'When should I use useReducer instead of useState for this form?'], [3, 'My React component re-renders 40 times on every keystroke, how do I fix the performance?'], [2, 'How do I share state between sibling components without prop drilling?'], [2, 'Convert this class component to hooks.'], [3, 'What is the cleanest way to fetch data in a Next.js server component and show a skeleton while loading?']]);
  } },
  { id: 'a11y', gen(r) {
    return { text: `Make this ${r.pick(['navigation menu', 'image carousel', 'date picker', 'tabs widget', 'form'])} accessible for screen readers and keyboard users. ${r.pick(['We have a government contract that requires WCAG 2.1 AA.', 'List the ARIA attributes you add.', ''])}`.trim(), difficulty: 3 };
  } },
  { id: 'landing', gen(r) {
    return { text: `Create a landing page for ${r.pick(['a coffee subscription', 'an AI note-taking app', 'a dental clinic', 'a SaaS analytics tool'])} with a hero section, feature grid, testimonials and a footer. ${r.pick(['Tailwind only.', 'Use CSS grid.', 'Add subtle animations on scroll.'])}`, difficulty: 2 };
  } },
  { id: 'es', lang: 'es', gen(r) {
    const [d, t] = r.pick([[1, 'centrar un div'], [2, 'hacer un menú responsive'], [3, 'crear un formulario con validación en varios pasos'], [2, 'agregar modo oscuro']]);
    return { text: `¿Cómo puedo ${t} en ${r.pick(UI_FW)}?`, difficulty: d };
  } },
  { id: 'fr', lang: 'fr', gen(r) {
    return { text: `Crée un composant ${r.pick(UI_FW)} pour ${r.pick(['une barre de navigation responsive', 'une carte produit avec image et prix', 'un formulaire de contact accessible'])}.`, difficulty: 2 };
  } },
  { id: 'de', lang: 'de', gen(r) {
    return { text: `Wie baue ich in ${r.pick(UI_FW)} ${r.pick(['ein Dropdown-Menü mit Tastatursteuerung', 'eine responsive Tabelle', 'einen Dark-Mode-Schalter'])}?`, difficulty: 2 };
  } },
  { id: 'pt', lang: 'pt', gen(r) {
    return { text: `Faça uma tela de login em ${r.pick(UI_FW)} com ${r.pick(['validação de senha', 'botão de mostrar senha', 'layout responsivo'])}.`, difficulty: 2 };
  } },
  { id: 'zh', lang: 'zh', gen(r) {
    return { text: `用${r.pick(UI_FW)}写一个${r.pick(['响应式导航栏', '带分页的表格组件', '拖拽排序的列表'])}。`, difficulty: 2 };
  } },
  { id: 'ja', lang: 'ja', gen(r) {
    return { text: `${r.pick(UI_FW)}で${r.pick(['モーダルダイアログ', 'レスポンシブなヘッダー', 'ダークモード切り替え'])}を作りたいです。コード例をください。`, difficulty: 2 };
  } },
];

// --------------------------------------------------------------------- repo_scan
export const repo_scan = [
  { id: 'overview', gen(r) {
    const tree = r.pick(REPO_TREES);
    return { text: `Here's the repo layout. Give me an overview of the architecture: what each part does, how they talk to each other, and where I should start reading.\n${tree}`, difficulty: 3 };
  } },
  { id: 'agent-usages', gen(r) {
    const sym = r.pick(['legacyRound', 'jwt.Parse', 'cursor.execute', 'moment(', 'process.env.API_KEY', 'deprecatedFetch', 'XMLHttpRequest']);
    return { text: `Scan the whole repository and list every place where ${sym} is used, grouped by module. Flag the ones in hot paths.`, system: AGENT_SYSTEMS[1], turn: 'agent', tool_result: r.pick(GREP_OUTPUTS), turns: r.int(2, 8), difficulty: 2 };
  } },
  { id: 'dead-code', gen(r) {
    const scope = dpick(r, [[4, 'It is a monorepo with ~400 packages.'], [3, 'About 60k lines of TypeScript.'], [3, 'Python 3.11, Django.'], [2, 'It is a small repo, maybe 30 files.']]);
    return { text: `Go through the codebase and find ${r.pick(['dead code and unused exports', 'all TODO/FIXME comments and rank them', 'duplicate utility functions that could be merged', 'every place we call the payments API without a timeout', 'modules with circular imports', 'every feature flag that is still referenced'])}. ${scope.text}`, system: r.chance(0.5) ? AGENT_SYSTEMS[1] : undefined, turn: r.pick(['agent', 'chat']), difficulty: scope.difficulty };
  } },
  { id: 'deps', gen(r) {
    return { text: `Which services in this repo depend on ${r.pick(['lodash', 'log4j', 'the old auth client', 'openssl 1.1', 'requests < 2.31'])}? Check every manifest (package.json, go.mod, pom.xml, requirements.txt) and give me a table.`, turn: 'agent', system: AGENT_SYSTEMS[1], tool_result: r.pick(REPO_TREES), turns: r.int(2, 7), difficulty: 3 };
  } },
  { id: 'where-is', gen(r) {
    return { text: `Where in this codebase is ${r.pick(['the retry logic for webhooks', 'the tax calculation', 'user session expiry handled', 'the feature flag client initialized', 'the database connection pool configured'])}? Search the repo and point me to the files.`, turn: r.pick(['agent', 'chat']), tool_result: r.chance(0.5) ? r.pick(GREP_OUTPUTS) : undefined, turns: r.int(1, 5), difficulty: 2 };
  } },
  { id: 'migration-impact', gen(r) {
    return { text: `We want to upgrade from ${r.pick(['React 17 to 18', 'Python 3.8 to 3.12', 'Spring Boot 2 to 3', 'Node 16 to 20', 'Django 3.2 to 5.0'])}. Crawl the repo and estimate the impact: breaking APIs used, files touched, and a rough plan.\n${r.pick(REPO_TREES)}`, difficulty: 4 };
  } },
  { id: 'es', lang: 'es', gen(r) {
    return { text: `${r.pick(['Revisa todo el repositorio y dime dónde se usa', 'Busca en el código del repo todas las referencias a', 'Escanea el proyecto y lista los archivos que usan'])} ${r.pick(['la función formatDate', 'la API de pagos', 'la variable SECRET_KEY', 'la librería moment', 'el cliente HTTP antiguo', 'las consultas SQL sin parámetros'])}.`, turn: 'agent', tool_result: r.chance(0.5) ? r.pick(GREP_OUTPUTS) : undefined, turns: r.int(2, 6), difficulty: 2 };
  } },
  { id: 'fr', lang: 'fr', gen(r) {
    return { text: `${r.pick(["Analyse la structure de ce dépôt et explique-moi l'architecture :", 'Parcours ce dépôt et liste les modules principaux :', 'Cartographie les dépendances entre les dossiers de ce repo :'])}\n${r.pick(REPO_TREES)}`, turn: r.pick(['chat', 'agent']), difficulty: 3 };
  } },
  { id: 'de', lang: 'de', gen(r) {
    return { text: `Durchsuche das Repository nach allen Stellen, an denen ${r.pick(['die alte Logging-API', 'direkte SQL-Strings', 'hart kodierte URLs', 'veraltete Abhängigkeiten', 'die Klasse PaymentClient', 'Umgebungsvariablen'])} verwendet werden${r.pick(['.', ', gruppiert nach Modul.', ', und gib mir eine Tabelle.'])}`, turn: 'agent', system: r.pick([AGENT_SYSTEMS[1], undefined]), tool_result: r.chance(0.4) ? r.pick(GREP_OUTPUTS) : undefined, turns: r.int(2, 6), difficulty: 2 };
  } },
  { id: 'ja', lang: 'ja', gen(r) {
    return { text: `リポジトリ全体をスキャンして、${r.pick(['使われていない関数', '循環参照しているモジュール', 'TODOコメント', '古いAPIの呼び出し箇所', 'ハードコードされた認証情報', 'テストのないモジュール'])}を${r.pick(['一覧にしてください。', 'ファイルごとにまとめてください。', '重要度順に並べてください。'])}`, turn: 'agent', system: r.pick([AGENT_SYSTEMS[1], undefined]), turns: r.int(2, 6), difficulty: 3 };
  } },
  { id: 'pt', lang: 'pt', gen(r) {
    return { text: `${r.pick(['Mapeie a arquitetura deste repositório e liste os módulos principais:', 'Faça uma varredura no repositório e explique como as partes se conectam:', 'Quais pastas deste repo dependem do serviço de billing?'])}\n${r.pick(REPO_TREES)}`, turn: r.pick(['chat', 'agent']), difficulty: 3 };
  } },
];

// -------------------------------------------------------------- devops_config
const CONFIG_TASKS = [
  [2, 'a Dockerfile for a Node 20 app'], [3, 'a multi-stage Dockerfile for a Go service that produces a distroless image under 20MB'],
  [2, 'a docker-compose.yml with Postgres, Redis and the API'], [3, 'Kubernetes Deployment, Service and Ingress manifests with liveness/readiness probes and resource limits'],
  [3, 'a GitHub Actions workflow that runs tests on PRs, builds a Docker image and pushes it to GHCR on main'],
  [4, 'Terraform for an AWS VPC with public/private subnets, NAT gateways and an RDS Postgres instance in private subnets'],
  [2, 'an nginx config that reverse-proxies /api to port 8080 and serves static files with gzip'],
  [3, 'Prometheus alerting rules for high error rate, p99 latency and pod restarts'], [2, 'a systemd unit file that restarts the service on failure'],
  [3, 'an Ansible playbook that hardens SSH and installs fail2ban'], [3, 'a Helm chart values file with autoscaling and pod disruption budget'],
  [4, 'an Argo CD ApplicationSet that deploys 12 services to three clusters with per-environment overrides'],
  [2, 'a .gitlab-ci.yml with lint, test and deploy stages'], [4, 'Terraform modules for a multi-region active-active setup with Route53 failover and cross-region replication'],
];

export const devops_config = [
  { id: 'write', gen(r) {
    const [d, t] = r.pick(CONFIG_TASKS);
    const prod = r.chance(0.2);
    return { text: `${r.pick(['Write', 'Give me', 'I need', 'Can you create'])} ${t}.${prod ? ' This is for the production cluster that serves payments.' : ''}`, system: genericSystem(r), difficulty: d, stakes: prod ? 'high' : 'normal' };
  } },
  { id: 'fix-yaml', gen(r) {
    const y = r.pick([
      `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: api\nspec:\n  replicas: 3\n  template:\n    spec:\n      containers:\n      - name: api\n        image: registry/api:latest\n        ports:\n        - containerPort: 8080`,
      `name: ci\non: [push]\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - run: npm test\n      env:\n        NODE_ENV: test`,
      `services:\n  db:\n    image: postgres:16\n    environment:\n      POSTGRES_PASSWORD: example\n  api:\n    build: .\n    depends_on: db\n    ports: "3000:3000"`,
    ]);
    return { text: `${r.pick(['This YAML fails validation, what is wrong?', 'kubectl apply rejects this, fix it:', 'Improve this config and explain each change:'])}\n${fence('yaml', y)}`, difficulty: 2 };
  } },
  { id: 'dockerfile-review', gen(r) {
    return { text: `Optimize this Dockerfile for build cache and image size:\n${fence('dockerfile', 'FROM python:3.12\nCOPY . /app\nWORKDIR /app\nRUN pip install -r requirements.txt\nRUN apt-get update && apt-get install -y build-essential\nCMD python app.py')}`, difficulty: 2 };
  } },
  { id: 'tf-module', gen(r) {
    const res = r.pick(['an S3 bucket with versioning, encryption and a lifecycle policy', 'a GKE cluster with a spot node pool', 'an Azure Function app with Key Vault references', 'IAM roles for a CI pipeline with least privilege', 'a CloudFront distribution in front of an S3 static site']);
    return { text: `Terraform: write a reusable module for ${res}. Include variables, outputs and an example usage.`, difficulty: 3 };
  } },
  { id: 'nginx', gen(r) {
    return { text: `nginx: ${r.pick(['redirect all http to https and add HSTS', 'rate limit /login to 5 requests per minute per IP', 'proxy websockets on /ws', 'serve a SPA so that deep links fall back to index.html'])}. Show the server block.`, difficulty: 2 };
  } },
  { id: 'es', lang: 'es', gen(r) {
    const q = dpick(r, [[2, 'un Dockerfile para una app de Django'], [2, 'un docker-compose con MySQL y la API'], [3, 'un manifiesto de Kubernetes con HPA, probes y límites de recursos'], [3, 'un workflow de GitHub Actions que pruebe, construya la imagen y despliegue a producción'], [4, 'módulos de Terraform para una VPC multi-región con RDS replicado']]);
    return { text: `Escribe ${q.text}.`, difficulty: q.difficulty, stakes: q.text.includes('producción') ? 'high' : 'normal' };
  } },
  { id: 'fr', lang: 'fr', gen(r) {
    const q = dpick(r, [[3, 'un Dockerfile multi-étapes pour une app Java'], [3, 'une configuration Terraform pour un bucket S3 chiffré avec cycle de vie'], [2, 'un fichier values.yaml pour Helm'], [2, 'un fichier docker-compose avec Postgres et Redis'], [3, 'un pipeline GitHub Actions qui construit et publie une image']]);
    return { text: `Peux-tu écrire ${q.text} ?`, difficulty: q.difficulty };
  } },
  { id: 'de', lang: 'de', gen(r) {
    const q = dpick(r, [[3, 'eine GitLab-CI-Pipeline mit Test- und Deploy-Stage'], [2, 'ein Kubernetes-Deployment mit Ressourcenlimits'], [2, 'eine nginx-Konfiguration als Reverse Proxy'], [2, 'eine systemd-Unit, die den Dienst bei Fehlern neu startet'], [3, 'ein Ansible-Playbook zur SSH-Härtung']]);
    return { text: `Erstelle ${q.text}.`, difficulty: q.difficulty };
  } },
  { id: 'pt', lang: 'pt', gen(r) {
    const q = dpick(r, [[2, 'um Dockerfile otimizado para Node'], [2, 'um docker-compose com Postgres e Redis'], [3, 'um pipeline de CI no GitHub Actions com testes e deploy'], [3, 'manifestos Kubernetes com Deployment, Service e Ingress'], [2, 'uma configuração do nginx como proxy reverso']]);
    return { text: `Preciso de ${q.text}.`, difficulty: q.difficulty };
  } },
  { id: 'zh', lang: 'zh', gen(r) {
    const q = dpick(r, [[3, 'Kubernetes的Deployment和Service配置，带健康检查'], [3, '多阶段构建的Dockerfile'], [2, 'GitHub Actions的CI配置'], [2, 'nginx反向代理配置'], [4, '用Terraform搭建多可用区的VPC和数据库']]);
    return { text: `帮我写一个${q.text}。`, difficulty: q.difficulty };
  } },
  { id: 'ja', lang: 'ja', gen(r) {
    const q = dpick(r, [[3, 'TerraformでVPCとサブネットを作る設定'], [2, 'docker-compose.ymlでPostgresとアプリを起動する設定'], [2, 'KubernetesのIngress設定'], [2, 'GitHub Actionsでテストを実行するワークフロー'], [3, 'Helmチャートのvalues.yaml（オートスケーリング付き）']]);
    return { text: `${q.text}を書いてください。`, difficulty: q.difficulty };
  } },
];

// ----------------------------------------------------------------- sql_database
export const sql_database = [
  { id: 'query', gen(r) {
    const schema = r.pick(SQL_SCHEMAS);
    const asks = [
      [2, 'the top 10 customers by revenue in the last 30 days'], [3, 'month-over-month revenue growth using window functions'],
      [2, 'employees who earn more than their manager'], [3, 'the 7-day rolling retention per signup cohort'],
      [2, 'products with an average rating below 3 and at least 20 reviews'], [3, 'for each department, the second highest salary'],
      [4, 'a funnel (signup → activation → purchase) per weekly cohort with conversion rates, handling users who skip steps'],
      [1, 'all customers from Germany'], [2, 'orders that have no items'],
    ];
    const [d, a] = r.pick(asks);
    return { text: `Schema:\n${schema}\n\nWrite a SQL query for ${a}.${r.chance(0.3) ? ' Postgres 15.' : ''}`, system: genericSystem(r), difficulty: d };
  } },
  { id: 'slow', gen(r) {
    const plan = r.pick(EXPLAIN_PLANS);
    return { text: `This query got slow as the table grew to ${r.int(5, 900)}M rows. Here's EXPLAIN ANALYZE — what index or rewrite do I need?\n${plan}`, difficulty: 3 };
  } },
  { id: 'schema-design', gen(r) {
    const dom = r.pick(['a multi-tenant SaaS with organizations, users, roles and audit logs', 'a library system with books, copies, members and loans', 'a marketplace with sellers, listings, orders and reviews', 'a double-entry bookkeeping ledger', 'a hotel booking system that must prevent double bookings']);
    const hi = dom.includes('ledger') || dom.includes('double bookings');
    return { text: `Design a relational schema for ${dom}. Include primary/foreign keys, indexes and explain normalization choices.`, difficulty: hi ? 4 : 3, stakes: dom.includes('ledger') ? 'high' : 'normal' };
  } },
  { id: 'explain-query', gen(r) {
    return { text: `Explain what this SQL does and whether it's correct:\n${fence('sql', r.pick(SQL_QUERIES))}`, difficulty: 2 };
  } },
  { id: 'migration', gen(r) {
    const m = r.pick(['add a NOT NULL column with a default to a 2-billion-row table without locking it', 'split the full_name column into first_name and last_name', 'change an INT primary key to BIGINT on a busy table', 'backfill a new tenant_id column in batches', 'remove duplicate rows from the payments table keeping the earliest']);
    const hi = m.includes('billion') || m.includes('payments') || m.includes('busy');
    return { text: `How do I ${m} in ${r.pick(['PostgreSQL', 'MySQL 8', 'SQL Server'])}? ${hi ? 'It is production and we cannot have downtime.' : ''}`.trim(), difficulty: hi ? 4 : 3, stakes: hi ? 'high' : 'normal' };
  } },
  { id: 'orm', gen(r) {
    return { text: `${r.pick(['Convert this SQL to a Prisma query:', 'Write the SQLAlchemy 2.0 equivalent:', 'How do I do this with ActiveRecord?', 'Translate to a Django ORM queryset:'])}\n${fence('sql', r.pick(SQL_QUERIES))}`, difficulty: 2 };
  } },
  { id: 'concepts', gen(r) {
    const q = r.pick([[2, 'What is the difference between INNER JOIN and LEFT JOIN?'], [3, 'When should I use a partial index vs a composite index in Postgres?'], [4, 'We get deadlocks between two transactions updating orders and inventory. How do I diagnose and prevent them?'], [3, 'Explain the isolation levels and which anomalies each one prevents.'], [1, 'sql to count rows in a table'], [4, 'Design a sharding strategy for a 40TB Postgres orders table with cross-shard reporting queries.']]);
    return { text: q[1], difficulty: q[0] };
  } },
  { id: 'agent-sql', gen(r) {
    return { text: `${r.pick(['Using the run_sql tool,', 'Query the warehouse and', 'With read-only SQL access,'])} ${r.pick(["find out why yesterday's revenue report is lower than Stripe's dashboard.", 'figure out which customers have orders but no invoices.', 'check whether the nightly dedup job removed valid rows.', 'find the slowest queries from pg_stat_statements and suggest indexes.'])}`, system: AGENT_SYSTEMS[2], turn: 'agent', tool_result: `run_sql -> [{"day":"${r.date()}","orders":${r.int(800, 2000)},"revenue_cents":${r.int(1000000, 9000000)}}]`, turns: r.int(3, 9), difficulty: 3, stakes: r.chance(0.5) ? 'high' : 'normal' };
  } },
  { id: 'es', lang: 'es', gen(r) {
    const q = dpick(r, [[2, 'el total de ventas por mes'], [2, 'los clientes sin pedidos'], [3, 'el producto más vendido por categoría'], [3, 'la retención de usuarios por cohorte semanal']]);
    return { text: `Con este esquema:\n${r.pick(SQL_SCHEMAS)}\n¿Cómo saco ${q.text} con SQL?`, difficulty: q.difficulty };
  } },
  { id: 'fr', lang: 'fr', gen(r) {
    return { text: `Ma requête SQL est très lente, comment l'optimiser ?\n${fence('sql', r.pick(SQL_QUERIES))}`, difficulty: 3 };
  } },
  { id: 'de', lang: 'de', gen(r) {
    const q = dpick(r, [[2, 'den Umsatz pro Kunde im letzten Quartal'], [2, 'doppelte E-Mail-Adressen'], [3, 'die drei neuesten Bestellungen pro Kunde'], [1, 'alle Kunden aus Deutschland']]);
    return { text: `Schreib eine SQL-Abfrage, die ${q.text} ermittelt.\n${r.pick(SQL_SCHEMAS)}`, difficulty: q.difficulty };
  } },
  { id: 'pt', lang: 'pt', gen(r) {
    return { text: `Como criar um índice para acelerar essa consulta?\n${fence('sql', r.pick(SQL_QUERIES))}`, difficulty: 2 };
  } },
  { id: 'zh', lang: 'zh', gen(r) {
    return { text: `写一个SQL查询，${r.pick(['统计每个月的订单总额', '找出没有下过单的用户', '查询每个部门工资最高的员工'])}。\n${r.pick(SQL_SCHEMAS)}`, difficulty: 2 };
  } },
  { id: 'ja', lang: 'ja', gen(r) {
    return { text: `このSQLが遅いです。インデックスをどう貼ればいいですか？\n${fence('sql', r.pick(SQL_QUERIES))}`, difficulty: 3 };
  } },
];

export { COMPANIES };
