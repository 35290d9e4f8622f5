import { randomBytes } from 'node:crypto';
import { createPrisma } from './db';
import { Prisma } from './generated/prisma/client';

// Drift check between prisma/schema.prisma (the generated client) and the committed SQL
// migration applied to svc_test: every model is created with every field set, read back,
// updated and deleted. A column missing, extra, misnamed or of another type fails here.

const RUN = `${process.pid}_${randomBytes(4).toString('hex')}`;
const at = (iso: string) => new Date(iso);

describe('batch Prisma schema matches the migrated database', () => {
  const prisma = createPrisma(process.env.DATABASE_URL!);
  afterAll(() => prisma.$disconnect());

  /** The row as Postgres stores it: one key per column. */
  async function columns(table: string, id: string): Promise<string[]> {
    const rows = await prisma.$queryRawUnsafe<Array<{ row: Record<string, unknown> }>>(`SELECT row_to_json(t) AS row FROM batch.${table} t WHERE id = $1`, id);
    expect(rows).toHaveLength(1);
    return Object.keys(rows[0]!.row).sort();
  }

  it('covers every model', () => {
    expect(Object.values(Prisma.ModelName).sort()).toEqual(['Batch', 'File']);
  });

  it('creates, reads, updates and deletes one row of every model', async () => {
    // Every byte value, so a text column in place of bytea would not round-trip.
    const blob = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
    const file = {
      id: `file_drift_${RUN}`,
      organizationId: `org_drift_${RUN}`,
      filename: 'input.jsonl',
      purpose: 'batch',
      bytes: 5_000_000_000n,
      blob: new Uint8Array(blob),
      lineCount: 3,
      expiresAt: at('2030-01-01T00:00:00.001Z'),
      createdAt: at('2025-01-01T00:00:00.002Z'),
    };
    const batch = {
      id: `batch_drift_${RUN}`,
      organizationId: file.organizationId,
      keyId: `key_drift_${RUN}`,
      inputFileId: file.id,
      status: 'validating',
      body: { endpoint: '/v1/chat/completions', request_counts: { total: 3, completed: 0, failed: 0 } },
      createdAt: at('2025-01-01T00:00:00.003Z'),
    };
    // The rows above set every scalar field of every model.
    expect(Object.keys(file).sort()).toEqual(Object.values(Prisma.FileScalarFieldEnum).sort());
    expect(Object.keys(batch).sort()).toEqual(Object.values(Prisma.BatchScalarFieldEnum).sort());

    try {
      // Create
      const createdFile = await prisma.file.create({ data: file });
      expect({ ...createdFile, blob: Buffer.from(createdFile.blob) }).toEqual({ ...file, blob });
      expect(await prisma.batch.create({ data: batch })).toEqual(batch);

      // Read (and each table has exactly the columns the model maps)
      const readFile = await prisma.file.findUniqueOrThrow({ where: { id: file.id } });
      expect(Buffer.from(readFile.blob).equals(blob)).toBe(true);
      expect({ ...readFile, blob: null }).toEqual({ ...file, blob: null });
      expect(await prisma.batch.findUnique({ where: { id: batch.id } })).toEqual(batch);
      expect(await columns('file', file.id)).toEqual(['blob', 'bytes', 'created_at', 'expires_at', 'filename', 'id', 'line_count', 'organization_id', 'purpose']);
      expect(await columns('batch', batch.id)).toEqual(['body', 'created_at', 'id', 'input_file_id', 'key_id', 'organization_id', 'status']);

      // Update
      const updatedFile = await prisma.file.update({ where: { id: file.id }, data: { blob: new Uint8Array([0, 255]), bytes: 2n, lineCount: 0 } });
      expect([Buffer.from(updatedFile.blob).toString('hex'), updatedFile.bytes, updatedFile.lineCount]).toEqual(['00ff', 2n, 0]);
      const updatedBatch = await prisma.batch.update({ where: { id: batch.id }, data: { status: 'completed', body: { request_counts: { total: 3, completed: 3, failed: 0 } } } });
      expect([updatedBatch.status, updatedBatch.body]).toEqual(['completed', { request_counts: { total: 3, completed: 3, failed: 0 } }]);

      // Delete
      await prisma.batch.delete({ where: { id: batch.id } });
      await prisma.file.delete({ where: { id: file.id } });
      expect(await prisma.batch.findUnique({ where: { id: batch.id } })).toBeNull();
      expect(await prisma.file.findUnique({ where: { id: file.id } })).toBeNull();
    } finally {
      await prisma.batch.deleteMany({ where: { id: batch.id } });
      await prisma.file.deleteMany({ where: { id: file.id } });
    }
  });

  it('line_count defaults to 0 when the client leaves it out', async () => {
    const id = `file_drift_default_${RUN}`;
    try {
      const created = await prisma.file.create({ data: { id, organizationId: 'org_x', filename: 'f', purpose: 'batch', bytes: 0n, blob: new Uint8Array(), expiresAt: at('2030-01-01T00:00:00.000Z') } });
      expect(created.lineCount).toBe(0);
      expect(created.createdAt).toBeInstanceOf(Date);
      expect(created.blob).toHaveLength(0);
    } finally {
      await prisma.file.deleteMany({ where: { id } });
    }
  });
});
