// What admission and settlement add to one request, and how fast the ledger fills.
// Goals: ≤ 0.3 ms median added per request; ≥ 2,000 settlements per second.
//
//   node bench/billing.mjs [--requests 3000] [--records 8000] [--rounds 3] [--orgs 4]
//
// Needs a build (`npx tsc -b`) and PostgreSQL, Redis and RabbitMQ on their default local ports
// (`rabbitmqctl` on PATH). Everything runs against the compiled code (services/billing/dist,
// libs/*/dist) in places of its own: the database svc_bench (created and migrated here, and left
// in place), Redis keys under `svcbench:<pid>:` and a RabbitMQ vhost `svc_bench_<pid>` (both
// removed at the end). One real billing process (services/billing/dist/main.js) is started as
// a child on a free port; it serves gRPC and consumes usage.settle like in production.
//
// Measured side by side in one run:
//  (a) admission: the Admit gRPC call to that process against grpc.health.v1 Check on the same
//      process (an empty call over the same transport), interleaved call by call, order
//      alternating; and admit() in-process (the one Lua round trip plus the code around it)
//      against a Redis PING on the same client;
//  (b) settlement on the request path: the confirmed publish of one usage record (what the edge
//      awaits before the response completes), in the same loop;
//  (c) ledger throughput, in rounds alternating three ways of settling `--records` records
//      spread over `--orgs` organizations: published while billing consumes (timed from the
//      first publish until the ledger holds them all); published while billing is paused
//      (SIGSTOP), then drained (timed from SIGCONT); and settle() in-process in batches of 200.
// At the end the Redis balances are checked against the ledger (credits − costs) and every
// reservation taken by the admission loop must have been given back.
import { execFileSync, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { root, summarize, ms } from './lib.mjs';

const args = Object.fromEntries(process.argv.slice(2).map((arg, i, all) => (arg.startsWith('--') ? [arg.slice(2), all[i + 1]] : null)).filter(Boolean));
const REQUESTS = Number(args.requests ?? 3000);
const WARMUP = Math.min(300, REQUESTS);
const RECORDS = Number(args.records ?? 8000);
const ROUNDS = Number(args.rounds ?? 3);
const ORGS = Number(args.orgs ?? 4);
const BATCH = 200;
const PUBLISH_WINDOW = 1000;
const GOAL_ADDED_MS = 0.3;
const GOAL_SETTLEMENTS_PER_S = 2000;

const dist = (path) => join(root, path);
const require = createRequire(import.meta.url);
const requireFrom = (pkg) => createRequire(join(root, pkg, 'package.json'));
const { grpc, callUnary, clientOptions, insecure } = require(dist('libs/grpc/dist/index.js'));
const { loadBillingProto } = require(dist('libs/protos/dist/index.js'));
const protoLoader = requireFrom('libs/protos')('@grpc/proto-loader');
const { protoPath: healthProtoPath } = requireFrom('libs/grpc')('grpc-health-check');
const { connectAmqp, declareQueue, publish } = require(dist('libs/amqp/dist/index.js'));
const { usageSettle } = require(dist('libs/messages/dist/index.js'));
const { createRedis, waitReady } = require(dist('libs/redis/dist/index.js'));
const { freePort, waitForPort } = require(dist('libs/fleet/dist/index.js'));
const { createPrisma } = require(dist('services/billing/dist/db.js'));
const { createOrganization } = require(dist('services/billing/dist/cli/admin-commands.js'));
const { admit } = require(dist('services/billing/dist/admission/admit.js'));
const { release } = require(dist('libs/admission/dist/index.js'));
const { settle } = require(dist('services/billing/dist/settlement/settle.js'));
const { balanceFromLedger, balanceKey } = require(dist('services/billing/dist/admission/balance.js'));

const RUN = `${process.pid}-${randomBytes(3).toString('hex')}`;
const DATABASE_URL = 'postgresql://postgres@127.0.0.1:5432/svc_bench';
const REDIS_URL = 'redis://127.0.0.1:6379/0';
const REDIS_KEY_PREFIX = `svcbench:${process.pid}:`;
const VHOST = `svc_bench_${process.pid}`;
const AMQP_URL = `amqp://guest:guest@127.0.0.1:5672/${VHOST}`;
const CREDIT_MICROS = 1_000_000_000_000_000n; // a billion dollars: no call is ever refused for credit
const COST_MICROS = 1234;

const sleep = (msToWait) => new Promise((resolve) => setTimeout(resolve, msToWait));
const elapsedMs = (started) => Number(process.hrtime.bigint() - started) / 1e6;
const say = (line = '') => process.stdout.write(`${line}\n`);
const rabbitmqctl = (...argv) => execFileSync('rabbitmqctl', argv, { stdio: 'ignore' });
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)];
const perSecond = (count, millis) => Math.round((count / millis) * 1000);

/** A usage record as the edge publishes it (services/edge/src/settlement/usage.ts). */
function usageRecord(org, callId) {
  return {
    call_id: callId,
    organization_id: org.organizationId,
    key_id: org.keyId,
    kind: 'chat',
    vendor: 'vendor-1',
    model: 'vendor-1/orion-mini-5',
    line: '',
    input_tokens: 12,
    output_tokens: 16,
    cached_tokens: 0,
    cache_write_tokens: 0,
    reasoning_tokens: 0,
    vendor_micros: 1100,
    service_fee_micros: 110,
    call_fee_micros: 24,
    cost_micros: COST_MICROS,
    direct_micros: 1100,
    byok: false,
    occurred_at_ms: Date.now(),
    reserved_micros: 250,
    plan: '',
    spend_period: '',
    member_id: org.accountId,
    baseline_pending: false,
  };
}

/** The key record the edge sends with Admit (a paid key without spend limits). */
function keyRecord(org) {
  return {
    key_id: org.keyId,
    organization_id: org.organizationId,
    account_id: org.accountId,
    scopes: ['chat'],
    organization_status: 'active',
    plan: 'paid',
    free_allowance: true,
    stop_at_zero: false,
    topped_up: true,
    member_id: org.accountId,
    member_quota_micros: 0,
    spend_limit_micros: 0,
    spend_period: '',
    rpm_limit: 1_000_000,
    tpm_limit: 1_000_000_000,
  };
}

function admitRequest(org, callId) {
  return { call_id: callId, organization_id: org.organizationId, key_id: org.keyId, estimated_micros: 250, estimated_list_micros: 250, byok: false, auto: false, key: keyRecord(org), input_tokens: 12, max_tokens: 16 };
}

/** Publishes every record with a confirm, at most `PUBLISH_WINDOW` unconfirmed at a time. */
async function publishAll(channel, records) {
  let next = 0;
  const worker = async () => {
    while (next < records.length) await publish(channel, usageSettle, records[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(PUBLISH_WINDOW, records.length) }, worker));
}

/** One unary call as the fleet's clients make it (libs/grpc callUnary: deadline, metrics, spec errors). */
function unary(client, method, request) {
  return callUnary(client[method], client, request, { deadlineMs: 5000 }, 'billing_unavailable');
}

async function startBilling(port, output) {
  const child = spawn(process.execPath, [dist('services/billing/dist/main.js')], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '',
      DATABASE_URL,
      REDIS_URL,
      REDIS_KEY_PREFIX,
      AMQP_URL,
      BILLING_HOST: '127.0.0.1',
      BILLING_PORT: String(port),
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      OTEL_SDK_DISABLED: 'true',
      METRICS_PORT: '0',
      SHUTDOWN_GRACE_MS: '10000',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const keep = (chunk) => {
    output.text = (output.text + chunk).slice(-8000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  await waitForPort(port, 30_000, () => child.exitCode === null);
  return child;
}

async function stopChild(child) {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGCONT');
  child.kill('SIGTERM');
  const force = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(force);
}

async function deletePrefixedKeys() {
  const plain = createRedis({ url: REDIS_URL });
  try {
    let cursor = '0';
    let deleted = 0;
    do {
      const [nextCursor, keys] = await plain.scan(cursor, 'MATCH', `${REDIS_KEY_PREFIX}*`, 'COUNT', 1000);
      cursor = nextCursor;
      if (keys.length > 0) deleted += await plain.del(...keys);
    } while (cursor !== '0');
    return deleted;
  } finally {
    plain.disconnect();
  }
}

async function main() {
  const started = process.hrtime.bigint();
  execFileSync(process.execPath, [dist('libs/db/dist/migrate-cli.js'), '--create-database'], { env: { ...process.env, DATABASE_URL }, stdio: 'ignore' });
  rabbitmqctl('add_vhost', VHOST);
  let vhostCreated = true;
  const prisma = createPrisma(DATABASE_URL);
  const redis = createRedis({ url: REDIS_URL, keyPrefix: REDIS_KEY_PREFIX, name: 'bench' });
  let amqp;
  let billing;
  const billingOutput = { text: '' };
  const clients = [];
  let stopping = false;
  try {
    rabbitmqctl('set_permissions', '-p', VHOST, 'guest', '.*', '.*', '.*');
    await prisma.$connect();
    await waitReady(redis);
    amqp = await connectAmqp(AMQP_URL);
    await declareQueue(amqp.channel, usageSettle.name);

    // Organizations with a key record of their own (Admit and settlement take the record as sent;
    // the key row itself is not read on these paths).
    const newOrg = async (label) => {
      const org = await createOrganization({ prisma, redis }, { name: `bench ${label}`, email: `bench-${label}-${RUN}@svcbench.local`, plan: 'paid', creditMicros: CREDIT_MICROS });
      return { organizationId: org.organization_id, accountId: org.account_id, keyId: `key_bench_${label}_${RUN}` };
    };
    const admissionOrg = await newOrg('admission');
    const throughputOrgs = [];
    for (let i = 0; i < ORGS; i += 1) throughputOrgs.push(await newOrg(`settle-${i}`));
    const throughputIds = throughputOrgs.map((org) => org.organizationId);

    const port = await freePort();
    billing = await startBilling(port, billingOutput);
    billing.on('exit', (code, signal) => {
      if (!stopping) process.stderr.write(`billing exited (${signal ?? code})\n${billingOutput.text}\n`);
    });

    // Same channel options as the fleet's clients (libs/backends).
    const channelOptions = clientOptions(5000);
    const billingProto = loadBillingProto();
    const healthProto = grpc.loadPackageDefinition(protoLoader.loadSync(healthProtoPath, { keepCase: true, enums: String }));
    const billingClient = new billingProto.BillingService(`127.0.0.1:${port}`, insecure(), channelOptions);
    const healthClient = new healthProto.grpc.health.v1.Health(`127.0.0.1:${port}`, insecure(), channelOptions);
    clients.push(billingClient, healthClient);

    // (a) + (b): one loop, every measurement interleaved.
    const series = { check: [], admit: [], addedPairs: [], ping: [], admitLocal: [], addedLocal: [], publish: [] };
    const deps = { prisma, redis };
    let sequence = 0;
    const iteration = async (record) => {
      sequence += 1;
      const remoteCall = `call_bench_r_${RUN}_${sequence}`;
      const localCall = `call_bench_l_${RUN}_${sequence}`;
      const timeCheck = async () => {
        const t = process.hrtime.bigint();
        const response = await unary(healthClient, 'Check', { service: '' });
        if (response.status !== 'SERVING') throw new Error(`health ${response.status}`);
        return elapsedMs(t);
      };
      const timeAdmit = async () => {
        const t = process.hrtime.bigint();
        await unary(billingClient, 'Admit', admitRequest(admissionOrg, remoteCall));
        return elapsedMs(t);
      };
      let check;
      let admitted;
      if (sequence % 2 === 0) {
        check = await timeCheck();
        admitted = await timeAdmit();
      } else {
        admitted = await timeAdmit();
        check = await timeCheck();
      }
      let t = process.hrtime.bigint();
      await redis.ping();
      const ping = elapsedMs(t);
      t = process.hrtime.bigint();
      await admit(deps, admitRequest(admissionOrg, localCall));
      const admitLocal = elapsedMs(t);
      // The remote call was answered: its usage is published (this also settles its reservation).
      t = process.hrtime.bigint();
      await publish(amqp.channel, usageSettle, usageRecord(admissionOrg, remoteCall));
      const published = elapsedMs(t);
      await release(redis, { call_id: localCall, organization_id: admissionOrg.organizationId });
      if (!record) return;
      series.check.push(check);
      series.admit.push(admitted);
      series.addedPairs.push(admitted - check);
      series.ping.push(ping);
      series.admitLocal.push(admitLocal);
      series.addedLocal.push(admitLocal - ping);
      series.publish.push(published);
    };
    for (let i = 0; i < WARMUP; i += 1) await iteration(false);
    for (let i = 0; i < REQUESTS; i += 1) await iteration(true);
    const admissionCalls = sequence;

    // (c): rounds, each settling RECORDS records three ways.
    const countThroughput = () => prisma.ledgerEntry.count({ where: { organizationId: { in: throughputIds } } });
    let callNumber = 0;
    const batchOfRecords = () => Array.from({ length: RECORDS }, (_, i) => usageRecord(throughputOrgs[i % ORGS], `call_bench_t_${RUN}_${(callNumber += 1)}`));
    const waitForLedger = async (target, deadlineMs = 120_000) => {
      const until = Date.now() + deadlineMs;
      for (;;) {
        const count = await countThroughput();
        if (count >= target) return count;
        if (Date.now() > until) throw new Error(`ledger holds ${count} of ${target} after ${deadlineMs} ms`);
        if (billing.exitCode !== null) throw new Error('billing exited while settling');
        await sleep(10);
      }
    };
    const rounds = [];
    let expected = await countThroughput();
    for (let round = 0; round < ROUNDS; round += 1) {
      // Live: published while billing consumes; until the last row is in the ledger.
      let records = batchOfRecords();
      let t = process.hrtime.bigint();
      await publishAll(amqp.channel, records);
      const livePublishMs = elapsedMs(t);
      expected += records.length;
      await waitForLedger(expected);
      const liveMs = elapsedMs(t);

      // Backlog: published while billing is paused, then drained.
      records = batchOfRecords();
      billing.kill('SIGSTOP');
      try {
        await publishAll(amqp.channel, records);
      } finally {
        billing.kill('SIGCONT');
      }
      t = process.hrtime.bigint();
      expected += records.length;
      await waitForLedger(expected);
      const backlogMs = elapsedMs(t);

      // In-process: settle() in batches of 200, one after another (as the consumer runs them).
      records = batchOfRecords();
      t = process.hrtime.bigint();
      let written = 0;
      for (let i = 0; i < records.length; i += BATCH) written += await settle({ prisma, redis }, records.slice(i, i + BATCH));
      const localMs = elapsedMs(t);
      if (written !== records.length) throw new Error(`settle() wrote ${written} of ${records.length}`);
      expected += records.length;

      rounds.push({ livePublishMs, liveMs, backlogMs, localMs });
    }

    // Everything published has been settled: check the books.
    const admissionTarget = admissionCalls;
    const admissionDeadline = Date.now() + 60_000;
    while ((await prisma.ledgerEntry.count({ where: { organizationId: admissionOrg.organizationId } })) < admissionTarget) {
      if (Date.now() > admissionDeadline) throw new Error('the admission loop’s usage records were not all settled');
      await sleep(20);
    }
    const totalRows = (await countThroughput()) + admissionTarget;
    // The ledger row is written before the counters move: give the last batch a moment.
    const books = async () => {
      const mismatches = [];
      for (const org of [admissionOrg, ...throughputOrgs]) {
        const inRedis = await redis.get(balanceKey(org.organizationId));
        const fromLedger = await balanceFromLedger(prisma, org.organizationId);
        if (inRedis !== fromLedger.toString()) mismatches.push(`${org.organizationId}: redis ${inRedis} ≠ ledger ${fromLedger}`);
      }
      const org = `{${admissionOrg.organizationId}}`;
      const heldOpen = Number((await redis.get(`heldbal:${org}`)) ?? 0) + (await redis.hlen(`hold:${org}`));
      return { mismatches, heldOpen };
    };
    let checked = await books();
    for (let tries = 0; tries < 50 && (checked.mismatches.length > 0 || checked.heldOpen !== 0); tries += 1) {
      await sleep(100);
      checked = await books();
    }
    const { mismatches, heldOpen } = checked;

    // Report.
    const sc = summarize(series.check);
    const sa = summarize(series.admit);
    const sPairs = summarize(series.addedPairs);
    const sp = summarize(series.ping);
    const sl = summarize(series.admitLocal);
    const sLocalPairs = summarize(series.addedLocal);
    const sPub = summarize(series.publish);
    const addedP50 = sa.p50 - sc.p50;
    const addedP99 = sa.p99 - sc.p99;
    const liveRate = median(rounds.map((r) => perSecond(RECORDS, r.liveMs)));
    const publishRate = median(rounds.map((r) => perSecond(RECORDS, r.livePublishMs)));
    const backlogRate = median(rounds.map((r) => perSecond(RECORDS, r.backlogMs)));
    const localRate = median(rounds.map((r) => perSecond(RECORDS, r.localMs)));
    const row = (label, s, note = '') => say(`  ${label.padEnd(46)} ${ms(s.p50).padStart(10)} ${ms(s.p99).padStart(10)}${note ? `   ${note}` : ''}`);

    say(`billing: ${REQUESTS} interleaved iterations after ${WARMUP} warm-up; ${ROUNDS} throughput rounds of ${RECORDS} records over ${ORGS} organizations`);
    say();
    say(`  ${'per request'.padEnd(46)} ${'p50'.padStart(10)} ${'p99'.padStart(10)}`);
    row('gRPC health Check (baseline, same process)', sc);
    row('gRPC Admit', sa);
    say(`  ${'  Admit added over Check'.padEnd(46)} ${ms(addedP50).padStart(10)} ${ms(addedP99).padStart(10)}   pair differences: median ${ms(sPairs.p50)}, p99 ${ms(sPairs.p99)}`);
    row('Redis PING (baseline, in-process)', sp);
    row('admit() in-process (Lua round trip)', sl);
    say(`  ${'  admit() added over PING'.padEnd(46)} ${ms(sl.p50 - sp.p50).padStart(10)} ${ms(sl.p99 - sp.p99).padStart(10)}   pair differences: median ${ms(sLocalPairs.p50)}, p99 ${ms(sLocalPairs.p99)}`);
    row('confirmed publish of one usage record', sPub, 'settlement on the request path (the edge awaits it)');
    say(`  ${'admission added + publish'.padEnd(46)} ${ms(addedP50 + sPub.p50).padStart(10)} ${ms(addedP99 + sPub.p99).padStart(10)}`);
    say();
    say(`  ${'ledger throughput (per round)'.padEnd(46)} ${rounds.map((_, i) => `round ${i + 1}`.padStart(10)).join(' ')} ${'median'.padStart(10)}`);
    const rateRow = (label, values, med) => say(`  ${label.padEnd(46)} ${values.map((v) => `${v}/s`.padStart(10)).join(' ')} ${`${med}/s`.padStart(10)}`);
    rateRow('queue, published while billing consumes', rounds.map((r) => perSecond(RECORDS, r.liveMs)), liveRate);
    rateRow('  of which publishing (confirmed)', rounds.map((r) => perSecond(RECORDS, r.livePublishMs)), publishRate);
    rateRow('queue, backlog drained by billing', rounds.map((r) => perSecond(RECORDS, r.backlogMs)), backlogRate);
    rateRow('settle() in-process, batches of 200', rounds.map((r) => perSecond(RECORDS, r.localMs)), localRate);
    say();
    say(`  books: ${totalRows} ledger rows; Redis balances ${mismatches.length === 0 ? 'equal credits − ledger' : `DIFFER: ${mismatches.join('; ')}`} for all ${ORGS + 1} organizations; reservations left open: ${heldOpen}`);
    const admissionOk = addedP50 <= GOAL_ADDED_MS;
    const totalOk = addedP50 + sPub.p50 <= GOAL_ADDED_MS;
    const throughputOk = liveRate >= GOAL_SETTLEMENTS_PER_S;
    say(`  goal ≤ ${GOAL_ADDED_MS} ms median added: Admit over Check ${ms(addedP50)} ${admissionOk ? 'MET' : 'MISSED'}; with the usage publish ${ms(addedP50 + sPub.p50)} ${totalOk ? 'MET' : 'MISSED'}`);
    say(`  goal ≥ ${GOAL_SETTLEMENTS_PER_S} settlements/s: ${liveRate}/s through the queue while publishing, ${backlogRate}/s draining a backlog ${throughputOk ? 'MET' : 'MISSED'}`);
    const round3 = (value) => Math.round(value * 1000) / 1000;
    const json = {
      bench: 'billing',
      requests: REQUESTS,
      admission_ms: { check_p50: round3(sc.p50), check_p99: round3(sc.p99), admit_p50: round3(sa.p50), admit_p99: round3(sa.p99), added_p50: round3(addedP50), added_p99: round3(addedP99), added_pair_median: round3(sPairs.p50), added_pair_p99: round3(sPairs.p99) },
      admit_in_process_ms: { ping_p50: round3(sp.p50), ping_p99: round3(sp.p99), admit_p50: round3(sl.p50), admit_p99: round3(sl.p99), added_p50: round3(sl.p50 - sp.p50), added_pair_median: round3(sLocalPairs.p50), added_pair_p99: round3(sLocalPairs.p99) },
      settlement_publish_ms: { p50: round3(sPub.p50), p99: round3(sPub.p99) },
      added_with_publish_ms: { p50: round3(addedP50 + sPub.p50), p99: round3(addedP99 + sPub.p99) },
      throughput_per_s: { records: RECORDS, rounds: ROUNDS, queue_live: liveRate, queue_publish: publishRate, queue_backlog: backlogRate, settle_in_process: localRate },
      books_ok: mismatches.length === 0 && heldOpen === 0,
      goals: { added_p50_admission: admissionOk, added_p50_with_publish: totalOk, settlements_per_s: throughputOk },
      seconds: round3(elapsedMs(started) / 1000),
    };
    say(JSON.stringify(json));
    if (!json.books_ok) process.exitCode = 1;
  } finally {
    stopping = true;
    for (const client of clients) client.close();
    await stopChild(billing);
    await amqp?.close();
    if (vhostCreated) {
      try {
        rabbitmqctl('delete_vhost', VHOST);
        vhostCreated = false;
      } catch (error) {
        process.stderr.write(`could not delete vhost ${VHOST}: ${error.message}\n`);
      }
    }
    redis.disconnect();
    await deletePrefixedKeys();
    await prisma.$disconnect();
  }
}

main().catch((error) => {
  process.stderr.write(`${error.stack}\n`);
  process.exit(1);
});
