import { parseArgs } from 'node:util';
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { parseConfig } from '@svc/config';
import { createRedis } from '@svc/redis';
import { billingConfigSchema } from '../config';
import { createPrisma } from '../db';
// The vendor-key, dead-letter and outbox commands load their modules when they run: the
// organization and key commands (most calls, and every test fixture) start without the broker
// client and the settlement code, in about half the time.
import { AdminError, addMember, listMembers, setMemberQuota, createKey, createOrganization, listKeys, revokeKey, seedDevelopment, setSuspended, topUp } from './admin-commands';

const USAGE = `svc admin (npm run admin -- <command> [options] [--json])

  org create  --name NAME [--email EMAIL] [--plan paid|free] [--credit MICROS] [--stop-at-zero]
  org topup   --org ORG_ID --micros MICROS
  org suspend --org ORG_ID
  org resume  --org ORG_ID
  key create  --org ORG_ID [--project PROJECT_ID] [--name NAME] [--scopes chat,embeddings,conversations]
              [--models MODEL,MODEL] [--expires ISO_DATE] [--spend-limit MICROS --spend-period day|week|month|life]
              [--fallback-policy same_vendor|cross_vendor|none] [--rpm N] [--tpm N] [--member ACCOUNT_ID|EMAIL]
  key revoke  --key KEY_ID
  key list    --org ORG_ID
  member add   --org ORG_ID --email EMAIL [--quota MICROS]   (monthly spend quota)
  member quota --org ORG_ID --member ACCOUNT_ID|EMAIL (--quota MICROS | --no-quota)
  member list  --org ORG_ID
  byok set    --org ORG_ID --vendor vendor-N --key VENDOR_KEY|-   (- reads the key from stdin)
  byok remove --org ORG_ID --vendor vendor-N
  byok list   --org ORG_ID
  seed-dev    [--write-env PATH] [--base-url URL] [--credit MICROS]
  usage dead   [--limit N]   dead usage records (usage.settle.dead and dead outbox rows), left in place
  usage replay [--limit N]   moves them back to be settled (safe to repeat: settlement is idempotent on call_id)
  usage outbox               usage records waiting in the outbox (billing.usage_outbox) and dead ones

Amounts are micros (millionths of a USD). A new key is shown once; only its hash is stored.
An organization's own vendor keys (BYOK) are stored sealed with BYOK_ENCRYPTION_KEY (base64 of
32 bytes); only their last four characters are ever shown.`;

const options = {
  json: { type: 'boolean' },
  help: { type: 'boolean' },
  name: { type: 'string' },
  email: { type: 'string' },
  plan: { type: 'string' },
  credit: { type: 'string' },
  'stop-at-zero': { type: 'boolean' },
  org: { type: 'string' },
  micros: { type: 'string' },
  project: { type: 'string' },
  scopes: { type: 'string' },
  models: { type: 'string' },
  expires: { type: 'string' },
  'spend-limit': { type: 'string' },
  'spend-period': { type: 'string' },
  'fallback-policy': { type: 'string' },
  rpm: { type: 'string' },
  tpm: { type: 'string' },
  key: { type: 'string' },
  vendor: { type: 'string' },
  member: { type: 'string' },
  quota: { type: 'string' },
  'no-quota': { type: 'boolean' },
  'write-env': { type: 'string' },
  'base-url': { type: 'string' },
  limit: { type: 'string' },
} as const;

function required(value: string | undefined, flag: string): string {
  if (!value) throw new AdminError(`--${flag} is required`);
  return value;
}

/** The whole of standard input, without surrounding whitespace (so `echo KEY |` works). */
async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin as AsyncIterable<Buffer | string>) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks).toString('utf8').trim();
}

function micros(value: string | undefined, flag: string): bigint {
  if (value === undefined || !/^\d+$/.test(value)) throw new AdminError(`--${flag} must be a whole number of micros`);
  return BigInt(value);
}

const list = (value: string | undefined) => (value ? value.split(',').map((item) => item.trim()).filter(Boolean) : undefined);
const int = (value: string | undefined, flag: string) => {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new AdminError(`--${flag} must be a whole number`);
  return Number(value);
};

function readEnvFile(path: string): Record<string, string> {
  if (!existsSync(path)) return {};
  return Object.fromEntries(
    readFileSync(path, 'utf8')
      .split('\n')
      .map((line) => /^([A-Z_]+)=(.*)$/.exec(line.trim()))
      .filter((match): match is RegExpExecArray => match !== null)
      .map((match) => [match[1], match[2]]),
  );
}

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({ args: process.argv.slice(2), options, allowPositionals: true, strict: true });
  const command = positionals.join(' ');
  if (values.help || !command) {
    process.stdout.write(`${USAGE}\n`);
    return values.help ? 0 : 2;
  }
  const config = parseConfig('admin', billingConfigSchema);
  const prisma = createPrisma(config.DATABASE_URL);
  const redis = createRedis({ url: config.REDIS_URL, keyPrefix: config.REDIS_KEY_PREFIX, name: 'admin' });
  const deps = { prisma, redis };
  try {
    let result: unknown;
    switch (command) {
      case 'org create':
        result = await createOrganization(deps, {
          name: required(values.name, 'name'),
          email: values.email ?? `${required(values.name, 'name').toLowerCase().replace(/[^a-z0-9]+/g, '-')}@example.invalid`,
          plan: values.plan === 'free' ? 'free' : values.plan === undefined || values.plan === 'paid' ? 'paid' : (() => { throw new AdminError('--plan must be paid or free'); })(),
          creditMicros: values.credit === undefined ? 0n : micros(values.credit, 'credit'),
          stopAtZero: values['stop-at-zero'],
        });
        break;
      case 'org topup':
        result = await topUp(deps, required(values.org, 'org'), micros(values.micros, 'micros'));
        break;
      case 'org suspend':
        result = await setSuspended(deps, required(values.org, 'org'), true);
        break;
      case 'org resume':
        result = await setSuspended(deps, required(values.org, 'org'), false);
        break;
      case 'key create':
        result = await createKey(deps, {
          organizationId: required(values.org, 'org'),
          projectId: values.project,
          name: values.name,
          scopes: list(values.scopes),
          models: list(values.models),
          expiresAt: values.expires ? new Date(values.expires) : undefined,
          spendLimitMicros: values['spend-limit'] === undefined ? undefined : micros(values['spend-limit'], 'spend-limit'),
          spendPeriod: values['spend-period'],
          fallbackPolicy: values['fallback-policy'],
          rpmLimit: int(values.rpm, 'rpm'),
          tpmLimit: int(values.tpm, 'tpm'),
          member: values.member,
        });
        break;
      case 'member add':
        result = await addMember(deps, required(values.org, 'org'), required(values.email, 'email'), values.quota === undefined ? undefined : micros(values.quota, 'quota'));
        break;
      case 'member quota':
        if ((values.quota === undefined) === !values['no-quota']) throw new AdminError('give either --quota MICROS or --no-quota');
        result = await setMemberQuota(deps, required(values.org, 'org'), required(values.member, 'member'), values.quota === undefined ? undefined : micros(values.quota, 'quota'));
        break;
      case 'member list':
        result = await listMembers(deps, required(values.org, 'org'));
        break;
      case 'key revoke':
        result = await revokeKey(deps, required(values.key, 'key'));
        break;
      case 'key list':
        result = await listKeys(deps, required(values.org, 'org'));
        break;
      case 'byok set': {
        const keyArgument = required(values.key, 'key');
        const [{ setVendorKey }, { parseEncryptionKey }] = await Promise.all([import('../byok/vendor-keys'), import('../byok/seal')]);
        result = await setVendorKey(
          { ...deps, encryptionKey: parseEncryptionKey(config.BYOK_ENCRYPTION_KEY) },
          { organizationId: required(values.org, 'org'), vendor: required(values.vendor, 'vendor'), apiKey: keyArgument === '-' ? await readStdin() : keyArgument },
        );
        break;
      }
      case 'byok remove': {
        const { removeVendorKey } = await import('../byok/vendor-keys');
        result = await removeVendorKey(deps, { organizationId: required(values.org, 'org'), vendor: required(values.vendor, 'vendor') });
        break;
      }
      case 'byok list': {
        const { listVendorKeys } = await import('../byok/vendor-keys');
        result = await listVendorKeys(prisma, required(values.org, 'org'));
        break;
      }
      case 'seed-dev': {
        const envFile = values['write-env'];
        const existing = envFile ? readEnvFile(envFile).SVC_API_KEY : undefined;
        const seeded = await seedDevelopment(deps, existing, values.credit === undefined ? 100_000_000n : micros(values.credit, 'credit'));
        if (envFile) {
          mkdirSync(dirname(envFile), { recursive: true });
          writeFileSync(envFile, `SVC_BASE_URL=${values['base-url'] ?? 'http://127.0.0.1:8080/v1'}\nSVC_API_KEY=${seeded.key}\n`, { mode: 0o600 });
        }
        result = seeded;
        break;
      }
      case 'usage dead': {
        const { listDeadLetters } = await import('../settlement/dead-letters');
        result = await listDeadLetters({ amqpUrl: config.AMQP_URL, prisma }, int(values.limit, 'limit') ?? 100);
        break;
      }
      case 'usage replay': {
        const { replayDeadLetters } = await import('../settlement/dead-letters');
        result = await replayDeadLetters({ amqpUrl: config.AMQP_URL, prisma }, int(values.limit, 'limit'));
        break;
      }
      case 'usage outbox': {
        const { outboxCounts } = await import('../settlement/outbox');
        result = await outboxCounts(prisma);
        break;
      }
      default:
        throw new AdminError(`unknown command "${command}"\n\n${USAGE}`);
    }
    process.stdout.write(values.json ? `${JSON.stringify(result)}\n` : `${formatHuman(result)}\n`);
    return 0;
  } finally {
    await prisma.$disconnect();
    redis.disconnect();
  }
}

function formatHuman(value: unknown): string {
  if (Array.isArray(value)) return value.map(formatHuman).join('\n\n') || '(none)';
  if (value && typeof value === 'object') {
    return Object.entries(value)
      .map(([field, inner]) => `${field}: ${Array.isArray(inner) ? inner.join(', ') : String(inner)}`)
      .join('\n');
  }
  return String(value);
}

main().then(
  (code) => process.exit(code),
  (error: Error) => {
    // A refusal the spec names (free_tier_limit with param members or api_keys) is also printed
    // as the error envelope on stdout, for scripts.
    if (error instanceof AdminError && error.details.code) {
      process.stdout.write(`${JSON.stringify({ error: { message: error.message, type: 'permission_error', param: error.details.param ?? null, code: error.details.code } })}\n`);
    }
    process.stderr.write(`admin: ${error.message}\n`);
    process.exit(error instanceof AdminError ? 2 : 1);
  },
);
