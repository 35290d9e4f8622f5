import { randomBytes } from 'node:crypto';
import { createPrisma } from './db';
import { Prisma } from './generated/prisma/client';

// Drift check between prisma/schema.prisma (the generated client) and the committed SQL
// migration applied to svc_test: every model is created with every field set, read back,
// updated and deleted. A column missing, extra, misnamed or of another type fails here.

const RUN = `${process.pid}_${randomBytes(4).toString('hex')}`;
const at = (iso: string) => new Date(iso);

describe('billing Prisma schema matches the migrated database', () => {
  const prisma = createPrisma(process.env.DATABASE_URL!);
  afterAll(() => prisma.$disconnect());

  /** The row as Postgres stores it: one key per column. */
  async function columns(table: string, keyColumn: string, id: string): Promise<string[]> {
    const rows = await prisma.$queryRawUnsafe<Array<{ row: Record<string, unknown> }>>(`SELECT row_to_json(t) AS row FROM billing.${table} t WHERE ${keyColumn} = $1`, id);
    expect(rows).toHaveLength(1);
    return Object.keys(rows[0]!.row).sort();
  }

  it('covers every model', () => {
    expect(Object.values(Prisma.ModelName).sort()).toEqual(['Account', 'ApiKey', 'CreditEntry', 'KeyBaseline', 'LedgerEntry', 'Organization', 'OrganizationMember', 'Project', 'VendorKey']);
  });

  it('creates, reads, updates and deletes one row of every model', async () => {
    const account = {
      id: `acct_drift_${RUN}`,
      email: `drift-${RUN}@svctest.local`,
      disabledModels: ['m-a', 'm-b'],
      createdAt: at('2025-01-01T00:00:00.001Z'),
    };
    const organization = {
      id: `org_drift_${RUN}`,
      accountId: account.id,
      name: 'Drift org',
      plan: 'free',
      status: 'suspended',
      stopAtZero: true,
      toppedUp: true,
      disabledModels: ['m-c'],
      retentionDays: 7,
      createdAt: at('2025-01-01T00:00:00.002Z'),
    };
    const project = {
      id: `proj_drift_${RUN}`,
      organizationId: organization.id,
      name: 'Drift project',
      disabledModels: ['m-d'],
      createdAt: at('2025-01-01T00:00:00.003Z'),
    };
    const apiKey = {
      id: `key_drift_${RUN}`,
      organizationId: organization.id,
      projectId: project.id,
      name: 'drift key',
      hash: randomBytes(32).toString('hex'),
      prefix: 'svc_live_Abcd',
      scopes: ['chat', 'embeddings'],
      allowedModels: ['gpt-test'],
      expiresAt: at('2030-05-06T07:08:09.010Z'),
      revokedAt: at('2026-01-01T00:00:00.000Z'),
      spendLimitMicros: 9_007_199_254_740_993n,
      spendPeriod: 'week',
      fallbackPolicy: 'none',
      rpmLimit: 12,
      tpmLimit: 3_400,
      memberId: account.id,
      createdAt: at('2025-01-01T00:00:00.004Z'),
    };
    const creditEntry = {
      id: `cred_drift_${RUN}`,
      organizationId: organization.id,
      amountMicros: 12_345_678_901_234n,
      kind: 'grant',
      note: 'drift check',
      createdAt: at('2025-01-01T00:00:00.005Z'),
    };
    const ledgerEntry = {
      callId: `call_drift_${RUN}`,
      organizationId: organization.id,
      keyId: apiKey.id,
      kind: 'embeddings',
      vendor: 'vendor-x',
      model: 'model-y',
      line: 'batch',
      inputTokens: 1,
      outputTokens: 2,
      cachedTokens: 3,
      cacheWriteTokens: 4,
      reasoningTokens: 5,
      vendorMicros: 6n,
      serviceFeeMicros: 7n,
      callFeeMicros: 8n,
      costMicros: 9_000_000_000_021n,
      directMicros: 10n,
      byok: true,
      plan: 'free',
      memberId: account.id,
      baselinePending: true,
      occurredAt: at('2025-02-03T04:05:06.007Z'),
      recordedAt: at('2025-02-03T04:05:06.008Z'),
    };
    const keyBaseline = {
      keyId: apiKey.id,
      model: 'vendor-1/model-z',
      calls: 2_147_483_647,
      pricePerTokenPico: 9_007_199_254_740_993n,
      // Far ahead, so a baseline recompute running beside this test never counts it as stale.
      computedAt: at('2099-02-03T04:05:06.009Z'),
    };
    const member = {
      organizationId: organization.id,
      accountId: account.id,
      role: 'owner',
      monthlyQuotaMicros: 9_007_199_254_740_993n,
      createdAt: at('2025-01-01T00:00:00.011Z'),
    };
    const vendorKey = {
      organizationId: organization.id,
      vendor: 'vendor-3',
      sealed: 'AAAA',
      hint: 'wxyz',
      createdAt: at('2025-01-01T00:00:00.012Z'),
      updatedAt: at('2025-01-01T00:00:00.013Z'),
    };
    // The rows above set every scalar field of every model.
    expect(Object.keys(member).sort()).toEqual(Object.values(Prisma.OrganizationMemberScalarFieldEnum).sort());
    expect(Object.keys(vendorKey).sort()).toEqual(Object.values(Prisma.VendorKeyScalarFieldEnum).sort());
    expect(Object.keys(account).sort()).toEqual(Object.values(Prisma.AccountScalarFieldEnum).sort());
    expect(Object.keys(organization).sort()).toEqual(Object.values(Prisma.OrganizationScalarFieldEnum).sort());
    expect(Object.keys(project).sort()).toEqual(Object.values(Prisma.ProjectScalarFieldEnum).sort());
    expect(Object.keys(apiKey).sort()).toEqual(Object.values(Prisma.ApiKeyScalarFieldEnum).sort());
    expect(Object.keys(creditEntry).sort()).toEqual(Object.values(Prisma.CreditEntryScalarFieldEnum).sort());
    expect(Object.keys(ledgerEntry).sort()).toEqual(Object.values(Prisma.LedgerEntryScalarFieldEnum).sort());
    expect(Object.keys(keyBaseline).sort()).toEqual(Object.values(Prisma.KeyBaselineScalarFieldEnum).sort());

    try {
      // Create
      expect(await prisma.account.create({ data: account })).toEqual(account);
      expect(await prisma.organization.create({ data: organization })).toEqual(organization);
      expect(await prisma.project.create({ data: project })).toEqual(project);
      expect(await prisma.apiKey.create({ data: apiKey })).toEqual(apiKey);
      expect(await prisma.creditEntry.create({ data: creditEntry })).toEqual(creditEntry);
      expect(await prisma.ledgerEntry.create({ data: ledgerEntry })).toEqual(ledgerEntry);
      expect(await prisma.keyBaseline.create({ data: keyBaseline })).toEqual(keyBaseline);
      expect(await prisma.organizationMember.create({ data: member })).toEqual(member);
      expect(await prisma.vendorKey.create({ data: vendorKey })).toEqual(vendorKey);
      expect(await columns('organization_member', 'organization_id', organization.id)).toEqual(['account_id', 'created_at', 'monthly_quota_micros', 'organization_id', 'role']);
      expect(await columns('vendor_key', 'organization_id', organization.id)).toEqual(['created_at', 'hint', 'organization_id', 'sealed', 'updated_at', 'vendor']);
      expect((await prisma.organizationMember.update({ where: { organizationId_accountId: { organizationId: organization.id, accountId: account.id } }, data: { monthlyQuotaMicros: null } })).monthlyQuotaMicros).toBeNull();

      // Read (and the table has exactly the columns the model maps)
      expect(await prisma.account.findUnique({ where: { email: account.email } })).toEqual(account);
      expect(await prisma.organization.findUnique({ where: { id: organization.id }, include: { account: true } })).toEqual({ ...organization, account });
      expect(await prisma.project.findUnique({ where: { id: project.id } })).toEqual(project);
      expect(await prisma.apiKey.findUnique({ where: { hash: apiKey.hash }, include: { organization: true, project: true } })).toEqual({ ...apiKey, organization, project });
      expect(await prisma.creditEntry.findUnique({ where: { id: creditEntry.id } })).toEqual(creditEntry);
      expect(await prisma.ledgerEntry.findUnique({ where: { callId: ledgerEntry.callId } })).toEqual(ledgerEntry);
      expect(await prisma.keyBaseline.findUnique({ where: { keyId: keyBaseline.keyId } })).toEqual(keyBaseline);
      expect(await columns('account', 'id', account.id)).toEqual(['created_at', 'disabled_models', 'email', 'id']);
      expect(await columns('organization', 'id', organization.id)).toEqual(['account_id', 'created_at', 'disabled_models', 'id', 'name', 'plan', 'retention_days', 'status', 'stop_at_zero', 'topped_up']);
      expect(await columns('project', 'id', project.id)).toEqual(['created_at', 'disabled_models', 'id', 'name', 'organization_id']);
      expect(await columns('api_key', 'id', apiKey.id)).toEqual([
        'allowed_models',
        'created_at',
        'expires_at',
        'fallback_policy',
        'hash',
        'id',
        'member_id',
        'name',
        'organization_id',
        'prefix',
        'project_id',
        'revoked_at',
        'rpm_limit',
        'scopes',
        'spend_limit_micros',
        'spend_period',
        'tpm_limit',
      ]);
      expect(await columns('credit_entry', 'id', creditEntry.id)).toEqual(['amount_micros', 'created_at', 'id', 'kind', 'note', 'organization_id']);
      expect(await columns('ledger_entry', 'call_id', ledgerEntry.callId)).toEqual([
        'baseline_pending',
        'byok',
        'cache_write_tokens',
        'cached_tokens',
        'call_fee_micros',
        'call_id',
        'cost_micros',
        'direct_micros',
        'input_tokens',
        'key_id',
        'kind',
        'line',
        'member_id',
        'model',
        'occurred_at',
        'organization_id',
        'output_tokens',
        'plan',
        'reasoning_tokens',
        'recorded_at',
        'service_fee_micros',
        'vendor',
        'vendor_micros',
      ]);
      expect(await columns('key_baseline', 'key_id', keyBaseline.keyId)).toEqual(['calls', 'computed_at', 'key_id', 'model', 'price_per_token_pico']);

      // Update
      expect((await prisma.account.update({ where: { id: account.id }, data: { disabledModels: [] } })).disabledModels).toEqual([]);
      expect((await prisma.organization.update({ where: { id: organization.id }, data: { status: 'active', retentionDays: 90 } })).retentionDays).toBe(90);
      expect((await prisma.project.update({ where: { id: project.id }, data: { name: 'Renamed' } })).name).toBe('Renamed');
      const key = await prisma.apiKey.update({ where: { id: apiKey.id }, data: { revokedAt: null, spendLimitMicros: null, spendPeriod: null, expiresAt: null } });
      expect([key.revokedAt, key.spendLimitMicros, key.spendPeriod, key.expiresAt]).toEqual([null, null, null, null]);
      expect((await prisma.creditEntry.update({ where: { id: creditEntry.id }, data: { amountMicros: -1n } })).amountMicros).toBe(-1n);
      expect((await prisma.ledgerEntry.update({ where: { callId: ledgerEntry.callId }, data: { costMicros: 0n, byok: false } })).costMicros).toBe(0n);
      expect(await prisma.keyBaseline.update({ where: { keyId: keyBaseline.keyId }, data: { model: 'vendor-2/model-w', calls: 0, pricePerTokenPico: 0n } })).toEqual({ ...keyBaseline, model: 'vendor-2/model-w', calls: 0, pricePerTokenPico: 0n });
      // key_baseline has no defaults: every column is NOT NULL and set by the recompute.
      await expect(prisma.$executeRawUnsafe(`INSERT INTO billing.key_baseline (key_id, model, calls, price_per_token_pico) VALUES ($1, 'm', 1, 1)`, `key_drift_nodefault_${RUN}`)).rejects.toThrow(/computed_at/);

      // Defaults the migration supplies when the client leaves a field out
      const defaults = await prisma.organization.create({ data: { id: `org_drift_defaults_${RUN}`, accountId: account.id, name: 'Defaults' } });
      expect(defaults).toEqual({
        id: `org_drift_defaults_${RUN}`,
        accountId: account.id,
        name: 'Defaults',
        plan: 'paid',
        status: 'active',
        stopAtZero: false,
        toppedUp: false,
        disabledModels: [],
        retentionDays: 30,
        createdAt: expect.any(Date),
      });
      // Check constraints from the migration hold
      await expect(prisma.organization.update({ where: { id: defaults.id }, data: { plan: 'platinum' } })).rejects.toThrow(/organization_plan_check/);
      await expect(prisma.apiKey.update({ where: { id: apiKey.id }, data: { fallbackPolicy: 'anywhere' } })).rejects.toThrow(/api_key_fallback_policy_check/);
      await prisma.organization.delete({ where: { id: defaults.id } });
    } finally {
      // Delete (children first; foreign keys restrict)
      await prisma.keyBaseline.deleteMany({ where: { keyId: keyBaseline.keyId } });
      await prisma.ledgerEntry.deleteMany({ where: { callId: ledgerEntry.callId } });
      await prisma.creditEntry.deleteMany({ where: { id: creditEntry.id } });
      await prisma.apiKey.deleteMany({ where: { id: apiKey.id } });
      await prisma.project.deleteMany({ where: { id: project.id } });
      await prisma.organization.deleteMany({ where: { accountId: account.id } });
      await prisma.account.deleteMany({ where: { id: account.id } });
    }
    expect(await prisma.ledgerEntry.findUnique({ where: { callId: ledgerEntry.callId } })).toBeNull();
    expect(await prisma.keyBaseline.findUnique({ where: { keyId: keyBaseline.keyId } })).toBeNull();
    expect(await prisma.creditEntry.findUnique({ where: { id: creditEntry.id } })).toBeNull();
    expect(await prisma.apiKey.findUnique({ where: { id: apiKey.id } })).toBeNull();
    expect(await prisma.project.findUnique({ where: { id: project.id } })).toBeNull();
    expect(await prisma.organization.findUnique({ where: { id: organization.id } })).toBeNull();
    expect(await prisma.account.findUnique({ where: { id: account.id } })).toBeNull();
  });

  it('the foreign keys of the migration restrict deleting a parent that still has children', async () => {
    const accountId = `acct_drift_fk_${RUN}`;
    const organizationId = `org_drift_fk_${RUN}`;
    await prisma.account.create({ data: { id: accountId, email: `drift-fk-${RUN}@svctest.local` } });
    await prisma.organization.create({ data: { id: organizationId, accountId, name: 'FK' } });
    try {
      await expect(prisma.account.delete({ where: { id: accountId } })).rejects.toThrow(/organization_account_id_fkey/);
    } finally {
      await prisma.organization.deleteMany({ where: { id: organizationId } });
      await prisma.account.deleteMany({ where: { id: accountId } });
    }
  });
});
