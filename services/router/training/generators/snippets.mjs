// Code, log and config snippets reused by several kinds of work.

export const PY_TRACEBACKS = [
  `Traceback (most recent call last):
  File "/app/worker.py", line 88, in process_batch
    total += row["amount"]
KeyError: 'amount'`,
  `Traceback (most recent call last):
  File "main.py", line 14, in <module>
    print(user.profile.name)
AttributeError: 'NoneType' object has no attribute 'name'`,
  `Traceback (most recent call last):
  File "/srv/api/views.py", line 231, in get_orders
    return orders[page * size]
IndexError: list index out of range`,
  `Traceback (most recent call last):
  File "train.py", line 57, in <module>
    loss = criterion(outputs, labels)
  File "/usr/lib/python3.11/site-packages/torch/nn/modules/module.py", line 1518, in _wrapped_call_impl
RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!`,
  `Traceback (most recent call last):
  File "etl/load.py", line 102, in <module>
    df = pd.merge(a, b, on="customer_id")
  File "pandas/core/reshape/merge.py", line 148, in merge
pandas.errors.MergeError: No common columns to perform merge on.`,
  `  File "app/db.py", line 40, in get_conn
    return psycopg2.connect(DSN)
psycopg2.OperationalError: connection to server at "10.0.3.12", port 5432 failed: FATAL:  remaining connection slots are reserved for non-replication superuser connections`,
  `RecursionError: maximum recursion depth exceeded while calling a Python object
  File "tree.py", line 19, in depth
    return 1 + max(depth(n.left), depth(n.right))`,
  `TypeError: unsupported operand type(s) for +: 'int' and 'str'
  File "report.py", line 33, in summarize
    total = total + line.split(",")[2]`,
];

export const JS_ERRORS = [
  `TypeError: Cannot read properties of undefined (reading 'map')
    at ProductList (ProductList.jsx:12:23)
    at renderWithHooks (react-dom.development.js:16305:18)`,
  `UnhandledPromiseRejectionWarning: Error: connect ECONNREFUSED 127.0.0.1:6379
    at TCPConnectWrap.afterConnect [as oncomplete] (node:net:1555:16)`,
  `Error: Rendered more hooks than during the previous render.
    at updateWorkInProgressHook (react-dom.development.js:15688:13)`,
  `SyntaxError: Unexpected token '<', "<!DOCTYPE "... is not valid JSON
    at JSON.parse (<anonymous>)
    at async fetchUser (api.ts:22:18)`,
  `FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory
 1: 0xb7a940 node::Abort() [node]
 2: 0xa8e823  [node]`,
  `TS2345: Argument of type 'string | undefined' is not assignable to parameter of type 'string'.
  Type 'undefined' is not assignable to type 'string'.
    src/services/user.ts:48:27`,
  `Error [ERR_REQUIRE_ESM]: require() of ES Module /app/node_modules/node-fetch/src/index.js from /app/dist/client.js not supported.`,
  `RangeError: Maximum call stack size exceeded
    at deepClone (utils.js:8:14)
    at deepClone (utils.js:12:20)`,
];

export const OTHER_ERRORS = [
  `Exception in thread "main" java.lang.NullPointerException: Cannot invoke "String.length()" because "name" is null
\tat com.acme.billing.InvoiceService.format(InvoiceService.java:77)
\tat com.acme.billing.Main.main(Main.java:21)`,
  `panic: assignment to entry in nil map

goroutine 1 [running]:
main.(*Cache).Set(...)
\t/app/cache.go:31
main.main()
\t/app/main.go:18 +0x65
exit status 2`,
  `error[E0502]: cannot borrow \`v\` as mutable because it is also borrowed as immutable
  --> src/main.rs:6:5
   |
4  |     let first = &v[0];
   |                  - immutable borrow occurs here
6  |     v.push(4);
   |     ^^^^^^^^^ mutable borrow occurs here`,
  `Segmentation fault (core dumped)
==4521== Invalid read of size 8
==4521==    at 0x109A3C: list_free (list.c:42)`,
  `System.InvalidOperationException: Collection was modified; enumeration operation may not execute.
   at System.Collections.Generic.List\`1.Enumerator.MoveNext()
   at Orders.Cleanup.Run() in /src/Orders/Cleanup.cs:line 54`,
  `fatal error: concurrent map writes

goroutine 47 [running]:
runtime.throw({0x4b8d2a?, 0x0?})`,
  `ActiveRecord::StatementInvalid: PG::UndefinedColumn: ERROR:  column users.tenant_id does not exist
LINE 1: SELECT "users".* FROM "users" WHERE "users"."tenant_id" = $1`,
  `kotlin.UninitializedPropertyAccessException: lateinit property adapter has not been initialized
    at com.example.app.MainActivity.onResume(MainActivity.kt:64)`,
];

export const BUGGY_SNIPPETS = [
  { lang: 'python', code: `def average(nums):
    total = 0
    for i in range(1, len(nums)):
        total += nums[i]
    return total / len(nums)` },
  { lang: 'javascript', code: `async function loadAll(ids) {
  const results = [];
  ids.forEach(async (id) => {
    const r = await fetch('/api/item/' + id);
    results.push(await r.json());
  });
  return results;
}` },
  { lang: 'go', code: `for _, job := range jobs {
    go func() {
        process(job)
        wg.Done()
    }()
}
wg.Wait()` },
  { lang: 'java', code: `public boolean isAdmin(User u) {
    return u.getRole() == "ADMIN";
}` },
  { lang: 'python', code: `def add_item(item, items=[]):
    items.append(item)
    return items` },
  { lang: 'typescript', code: `useEffect(() => {
  const id = setInterval(() => setCount(count + 1), 1000);
}, []);` },
  { lang: 'c', code: `char *copy(const char *s) {
    char buf[64];
    strcpy(buf, s);
    return buf;
}` },
  { lang: 'rust', code: `fn longest(a: &str, b: &str) -> &str {
    if a.len() > b.len() { a } else { b }
}` },
];

export const INSECURE_SNIPPETS = [
  { issue: 'sql injection', lang: 'python', code: `@app.route("/user")
def get_user():
    uid = request.args.get("id")
    cur.execute(f"SELECT * FROM users WHERE id = {uid}")
    return jsonify(cur.fetchone())` },
  { issue: 'xss', lang: 'javascript', code: `app.get('/search', (req, res) => {
  res.send('<h1>Results for ' + req.query.q + '</h1>');
});` },
  { issue: 'path traversal', lang: 'javascript', code: `app.get('/files', (req, res) => {
  const p = path.join(__dirname, 'uploads', req.query.name);
  res.sendFile(p);
});` },
  { issue: 'hardcoded secret', lang: 'python', code: `AWS_SECRET_ACCESS_KEY = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
s3 = boto3.client("s3", aws_access_key_id="AKIAIOSFODNN7EXAMPLE", aws_secret_access_key=AWS_SECRET_ACCESS_KEY)` },
  { issue: 'insecure deserialization', lang: 'python', code: `@app.post("/import")
def import_state():
    state = pickle.loads(base64.b64decode(request.data))
    return {"ok": True, "keys": list(state)}` },
  { issue: 'ssrf', lang: 'go', code: `func preview(w http.ResponseWriter, r *http.Request) {
    resp, _ := http.Get(r.URL.Query().Get("url"))
    io.Copy(w, resp.Body)
}` },
  { issue: 'weak password hashing', lang: 'php', code: `$hash = md5($_POST['password']);
$db->query("INSERT INTO users (email, pw) VALUES ('" . $_POST['email'] . "', '$hash')");` },
  { issue: 'jwt verification', lang: 'javascript', code: `const payload = jwt.decode(req.headers.authorization.split(' ')[1]);
if (payload.role === 'admin') { next(); }` },
  { issue: 'command injection', lang: 'python', code: `def ping(host):
    return subprocess.check_output("ping -c 1 " + host, shell=True)` },
  { issue: 'open redirect', lang: 'java', code: `@GetMapping("/login/callback")
public void cb(@RequestParam String next, HttpServletResponse res) throws IOException {
    res.sendRedirect(next);
}` },
  { issue: 'missing authorization', lang: 'typescript', code: `router.delete('/api/accounts/:id', async (req, res) => {
  await db.account.delete({ where: { id: req.params.id } });
  res.status(204).end();
});` },
  { issue: 'race condition', lang: 'python', code: `def withdraw(account_id, amount):
    bal = db.get_balance(account_id)
    if bal >= amount:
        db.set_balance(account_id, bal - amount)
        return True
    return False` },
];

export const SQL_SCHEMAS = [
  `CREATE TABLE customers (id BIGSERIAL PRIMARY KEY, email TEXT UNIQUE NOT NULL, country CHAR(2), created_at TIMESTAMPTZ DEFAULT now());
CREATE TABLE orders (id BIGSERIAL PRIMARY KEY, customer_id BIGINT REFERENCES customers(id), total_cents INT NOT NULL, status TEXT, created_at TIMESTAMPTZ);
CREATE TABLE order_items (order_id BIGINT REFERENCES orders(id), sku TEXT, qty INT, price_cents INT);`,
  `employees(id, name, department_id, manager_id, salary, hired_on)
departments(id, name, budget)`,
  `events(user_id uuid, event_name text, occurred_at timestamptz, properties jsonb)
users(id uuid, signup_at timestamptz, plan text)`,
  `CREATE TABLE payments (id UUID PRIMARY KEY, account_id UUID NOT NULL, amount NUMERIC(12,2), currency CHAR(3), status VARCHAR(16), created_at TIMESTAMP);
CREATE INDEX ON payments (account_id);`,
  `products(id, name, category, price)
reviews(id, product_id, rating, body, created_at)`,
];

export const SQL_QUERIES = [
  `SELECT c.email, SUM(o.total_cents) FROM customers c JOIN orders o ON o.customer_id = c.id WHERE o.created_at > now() - interval '30 days' GROUP BY c.email ORDER BY 2 DESC LIMIT 10;`,
  `SELECT * FROM events WHERE properties->>'plan' = 'pro' AND occurred_at BETWEEN '2024-01-01' AND '2024-02-01';`,
  `UPDATE inventory SET qty = qty - 1 WHERE sku = 'A-100';`,
  `SELECT department_id, AVG(salary) FROM employees GROUP BY department_id HAVING AVG(salary) > 90000;`,
  `SELECT o.id FROM orders o WHERE o.id NOT IN (SELECT order_id FROM order_items);`,
  `DELETE FROM sessions WHERE last_seen < now() - interval '90 days';`,
];

export const EXPLAIN_PLANS = [
  `Seq Scan on orders  (cost=0.00..184322.10 rows=4 width=64) (actual time=0.031..2210.554 rows=3 loops=1)
  Filter: ((customer_id = 42) AND (status = 'open'::text))
  Rows Removed by Filter: 8123991
Planning Time: 0.112 ms
Execution Time: 2210.601 ms`,
  `Nested Loop  (cost=1.13..98231.55 rows=1200 width=48) (actual time=0.05..8732.1 rows=1187 loops=1)
  ->  Index Scan using events_user_idx on events e  (actual rows=912001 loops=1)
  ->  Index Scan using users_pkey on users u  (actual rows=0 loops=912001)
Execution Time: 8733.9 ms`,
  `Sort  (cost=72110.22..72500.10 rows=155952 width=40) (actual time=1902.3..2011.7 rows=155952 loops=1)
  Sort Method: external merge  Disk: 9816kB
  ->  Hash Join  (actual time=210.4..1450.2 rows=155952 loops=1)`,
];

export const FILE_CONTENTS = [
  { path: 'src/config.ts', body: `export const config = {
  port: Number(process.env.PORT ?? 8080),
  timeoutMs: 5000,
  retries: 2,
  featureFlags: { newCheckout: false },
};` },
  { path: 'package.json', body: `{
  "name": "web-app",
  "version": "1.4.2",
  "scripts": { "build": "vite build", "test": "vitest run" },
  "dependencies": { "react": "18.2.0", "zod": "3.22.4" }
}` },
  { path: 'settings.py', body: `DEBUG = True
ALLOWED_HOSTS = []
DATABASES = {"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": BASE_DIR / "db.sqlite3"}}
LANGUAGE_CODE = "en-us"` },
  { path: '.env.example', body: `DATABASE_URL=postgres://app:app@localhost:5432/app
REDIS_URL=redis://localhost:6379
LOG_LEVEL=info` },
  { path: 'README.md', body: `# inventory-service
Tracks stock levels per warehouse.
## Running
make dev
## Testing
make test` },
  { path: 'app/models/user.rb', body: `class User < ApplicationRecord
  has_many :orders
  validates :email, presence: true, uniqueness: true
end` },
  { path: 'cmd/server/main.go', body: `func main() {
\tcfg := config.Load()
\tsrv := api.New(cfg)
\tlog.Fatal(srv.ListenAndServe())
}` },
];

export const REPO_TREES = [
  `.
├── apps
│   ├── web (Next.js)
│   └── admin
├── packages
│   ├── ui
│   ├── api-client
│   └── config
├── services
│   ├── billing (Go)
│   ├── auth (Node)
│   └── search (Python)
├── infra/terraform
└── package.json`,
  `src/
  main/java/com/acme/
    controller/ (14 files)
    service/ (31 files)
    repository/ (22 files)
    legacy/ (58 files)
  test/java/com/acme/ (40 files)
pom.xml`,
  `backend/
  api/  routes.py  deps.py
  core/  security.py  config.py
  models/  (19 files)
  workers/  celery_app.py  tasks/
frontend/
  src/components (87 files)
docker-compose.yml`,
];

export const GREP_OUTPUTS = [
  `src/billing/charge.ts:14:import { legacyRound } from '../utils/money';
src/billing/refund.ts:9:import { legacyRound } from '../utils/money';
src/reports/monthly.ts:112:  const v = legacyRound(total, 2);
test/money.test.ts:3:import { legacyRound } from '../src/utils/money';`,
  `services/auth/handler.go:88:	token, err := jwt.Parse(raw, nil)
services/gateway/mw.go:41:	claims := jwt.MapClaims{}
pkg/jwtutil/verify.go:12:func Verify(raw string) (*Claims, error) {`,
  `app/views/orders.py:45:    cursor.execute("SELECT * FROM orders WHERE id=%s" % order_id)
app/views/admin.py:120:    cursor.execute(f"DELETE FROM users WHERE id={uid}")
app/reports/sql.py:9:    cursor.execute(query, params)`,
];

export const K8S_STATUS = [
  `NAME                          READY   STATUS             RESTARTS   AGE
checkout-api-7d9f8b6c5-2xkqp   0/1     CrashLoopBackOff   14         38m
checkout-api-7d9f8b6c5-9hvmz   0/1     CrashLoopBackOff   14         38m
payments-worker-5c7b9-xq2lr    1/1     Running            0          6d`,
  `Events:
  Type     Reason            Age   From               Message
  Warning  FailedScheduling  3m    default-scheduler  0/6 nodes are available: 6 Insufficient memory.
  Warning  OOMKilled         1m    kubelet            Container api exceeded memory limit (512Mi)`,
  `NAME        STATUS     ROLES    AGE   VERSION
node-a1     Ready      worker   91d   v1.28.4
node-a2     NotReady   worker   91d   v1.28.4
node-a3     Ready      worker   91d   v1.28.4`,
];

export const SHELL_OUTPUTS = [
  `$ df -h
Filesystem      Size  Used Avail Use% Mounted on
/dev/nvme0n1p1  100G   97G  3.0G  98% /
tmpfs           7.8G     0  7.8G   0% /dev/shm`,
  `$ ls -la
total 48
drwxr-xr-x  6 dev dev 4096 Mar  3 10:12 .
-rw-r--r--  1 dev dev  812 Mar  3 10:12 Makefile
-rw-r--r--  1 dev dev 2311 Mar  2 18:40 go.mod
drwxr-xr-x  3 dev dev 4096 Mar  1 09:01 internal`,
  `$ git status
On branch feature/export
Your branch and 'origin/feature/export' have diverged,
and have 3 and 5 different commits each, respectively.`,
  `$ lsof -i :3000
COMMAND   PID USER   FD   TYPE DEVICE SIZE/OFF NODE NAME
node    48211  dev   23u  IPv6 0x8c1      0t0  TCP *:3000 (LISTEN)`,
  `$ npm test
> vitest run
 FAIL  src/cart.test.ts > applies discount
AssertionError: expected 89.99 to be 90
Test Files  1 failed | 12 passed (13)`,
  `$ du -sh /var/log/* | sort -h | tail -3
1.2G\t/var/log/journal
4.8G\t/var/log/nginx
11G\t/var/log/app`,
];
