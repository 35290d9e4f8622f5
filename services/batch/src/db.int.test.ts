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
    expect(Object.values(Prisma.ModelName).sort()).toEqual(['Batch', 'BatchLine', 'File', 'FileChunk', 'OrganizationKey']);
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
      lineCount: 3,
      status: 'processed',
      chunkCount: 4769,
      expiresAt: at('2030-01-01T00:00:00.001Z'),
      createdAt: at('2025-01-01T00:00:00.002Z'),
      deletedAt: at('2025-01-02T00:00:00.004Z'),
    };
    const chunk = { blobId: file.id, index: 7, data: new Uint8Array(blob) };
    const organizationKey = { organizationId: file.organizationId, sealedKey: new Uint8Array(blob), createdAt: at('2025-01-01T00:00:00.005Z') };
    const batch = {
      id: `batch_drift_${RUN}`,
      organizationId: file.organizationId,
      keyId: `key_drift_${RUN}`,
      inputFileId: file.id,
      status: 'validating',
      endpoint: '/v1/chat/completions',
      completionWindow: '24h',
      metadata: { job: 'nightly' },
      allowStandardPrice: true,
      errors: [{ code: 'empty_file', message: 'm', param: null, line: null }],
      outputFileId: 'file_out',
      errorFileId: 'file_err',
      total: 3,
      completed: 1,
      failed: 1,
      vendorMicros: 10n,
      billedMicros: 11n,
      directMicros: 12n,
      savedMicros: 1n,
      createdAt: at('2025-01-01T00:00:00.003Z'),
      expiresAt: at('2025-01-02T00:00:00.003Z'),
      inProgressAt: at('2025-01-01T00:00:01.000Z'),
      finalizingAt: at('2025-01-01T00:00:02.000Z'),
      completedAt: at('2025-01-01T00:00:03.000Z'),
      failedAt: at('2025-01-01T00:00:04.000Z'),
      expiredAt: at('2025-01-01T00:00:05.000Z'),
      cancellingAt: at('2025-01-01T00:00:06.000Z'),
      cancelledAt: at('2025-01-01T00:00:07.000Z'),
      retentionDays: 7,
      leaseUntil: at('2025-01-01T00:00:08.000Z'),
    };
    const batchLine = { batchId: batch.id, index: 2, customId: 'c-2', status: 'completed', result: new Uint8Array(blob) };
    // The rows above set every scalar field of every model.
    expect(Object.keys(file).sort()).toEqual(Object.values(Prisma.FileScalarFieldEnum).sort());
    expect(Object.keys(batch).sort()).toEqual(Object.values(Prisma.BatchScalarFieldEnum).sort());
    expect(Object.keys(chunk).sort()).toEqual(Object.values(Prisma.FileChunkScalarFieldEnum).sort());
    expect(Object.keys(batchLine).sort()).toEqual(Object.values(Prisma.BatchLineScalarFieldEnum).sort());
    expect(Object.keys(organizationKey).sort()).toEqual(Object.values(Prisma.OrganizationKeyScalarFieldEnum).sort());

    try {
      // Create
      expect(await prisma.file.create({ data: file })).toEqual(file);
      expect(await prisma.batch.create({ data: batch })).toEqual(batch);
      const createdLine = await prisma.batchLine.create({ data: batchLine });
      expect({ ...createdLine, result: Buffer.from(createdLine.result!) }).toEqual({ ...batchLine, result: blob });
      const createdChunk = await prisma.fileChunk.create({ data: chunk });
      expect(Buffer.from(createdChunk.data).equals(blob)).toBe(true);
      const createdKey = await prisma.organizationKey.create({ data: organizationKey });
      expect({ ...createdKey, sealedKey: Buffer.from(createdKey.sealedKey) }).toEqual({ ...organizationKey, sealedKey: blob });

      // Read (and each table has exactly the columns the model maps)
      expect(await prisma.file.findUnique({ where: { id: file.id } })).toEqual(file);
      expect(await prisma.batch.findUnique({ where: { id: batch.id } })).toEqual(batch);
      const readChunk = await prisma.fileChunk.findUniqueOrThrow({ where: { blobId_index: { blobId: chunk.blobId, index: chunk.index } } });
      expect(Buffer.from(readChunk.data).equals(blob)).toBe(true);
      expect(await columns('file', file.id)).toEqual(['bytes', 'chunk_count', 'created_at', 'deleted_at', 'expires_at', 'filename', 'id', 'line_count', 'organization_id', 'purpose', 'status']);
      expect(await columns('batch', batch.id)).toEqual(
        ['allow_standard_price', 'billed_micros', 'cancelled_at', 'cancelling_at', 'completed', 'completed_at', 'completion_window', 'created_at', 'direct_micros', 'endpoint', 'error_file_id', 'errors', 'expired_at', 'expires_at', 'failed', 'failed_at', 'finalizing_at', 'id', 'in_progress_at', 'input_file_id', 'key_id', 'lease_until', 'metadata', 'organization_id', 'output_file_id', 'retention_days', 'saved_micros', 'status', 'total', 'vendor_micros'],
      );
      const lineColumns = await prisma.$queryRawUnsafe<Array<{ row: Record<string, unknown> }>>('SELECT row_to_json(t) AS row FROM batch.batch_line t WHERE batch_id = $1', batch.id);
      expect(Object.keys(lineColumns[0]!.row).sort()).toEqual(['batch_id', 'custom_id', 'index', 'result', 'status']);
      const chunkColumns = await prisma.$queryRawUnsafe<Array<{ row: Record<string, unknown> }>>('SELECT row_to_json(t) AS row FROM batch.file_chunk t WHERE blob_id = $1', chunk.blobId);
      expect(Object.keys(chunkColumns[0]!.row).sort()).toEqual(['blob_id', 'data', 'index']);
      const keyColumns = await prisma.$queryRawUnsafe<Array<{ row: Record<string, unknown> }>>('SELECT row_to_json(t) AS row FROM batch.organization_key t WHERE organization_id = $1', organizationKey.organizationId);
      expect(Object.keys(keyColumns[0]!.row).sort()).toEqual(['created_at', 'organization_id', 'sealed_key']);

      // Update
      const updatedFile = await prisma.file.update({ where: { id: file.id }, data: { bytes: 2n, lineCount: 0, status: 'uploading', chunkCount: 1, deletedAt: null } });
      expect([updatedFile.bytes, updatedFile.lineCount, updatedFile.status, updatedFile.chunkCount, updatedFile.deletedAt]).toEqual([2n, 0, 'uploading', 1, null]);
      const updatedChunk = await prisma.fileChunk.update({ where: { blobId_index: { blobId: chunk.blobId, index: chunk.index } }, data: { data: new Uint8Array([0, 255]) } });
      expect(Buffer.from(updatedChunk.data).toString('hex')).toBe('00ff');
      const updatedBatch = await prisma.batch.update({ where: { id: batch.id }, data: { status: 'completed', completed: 3, failed: 0 } });
      expect([updatedBatch.status, updatedBatch.completed, updatedBatch.failed]).toEqual(['completed', 3, 0]);
      const updatedLine = await prisma.batchLine.update({ where: { batchId_index: { batchId: batch.id, index: 2 } }, data: { status: 'failed', result: null } });
      expect([updatedLine.status, updatedLine.result]).toEqual(['failed', null]);

      // Delete
      await prisma.fileChunk.delete({ where: { blobId_index: { blobId: chunk.blobId, index: chunk.index } } });
      await prisma.organizationKey.delete({ where: { organizationId: organizationKey.organizationId } });
      await prisma.batchLine.delete({ where: { batchId_index: { batchId: batch.id, index: 2 } } });
      await prisma.batch.delete({ where: { id: batch.id } });
      await prisma.file.delete({ where: { id: file.id } });
      expect(await prisma.batch.findUnique({ where: { id: batch.id } })).toBeNull();
      expect(await prisma.file.findUnique({ where: { id: file.id } })).toBeNull();
    } finally {
      await prisma.fileChunk.deleteMany({ where: { blobId: chunk.blobId } });
      await prisma.organizationKey.deleteMany({ where: { organizationId: organizationKey.organizationId } });
      await prisma.batchLine.deleteMany({ where: { batchId: batch.id } });
      await prisma.batch.deleteMany({ where: { id: batch.id } });
      await prisma.file.deleteMany({ where: { id: file.id } });
    }
  });

  it('line_count, chunk_count and status default to 0, 0 and uploading when the client leaves them out', async () => {
    const id = `file_drift_default_${RUN}`;
    try {
      const created = await prisma.file.create({ data: { id, organizationId: 'org_x', filename: 'f', purpose: 'batch', bytes: 0n, expiresAt: at('2030-01-01T00:00:00.000Z') } });
      expect([created.lineCount, created.chunkCount, created.status, created.deletedAt]).toEqual([0, 0, 'uploading', null]);
      expect(created.createdAt).toBeInstanceOf(Date);
    } finally {
      await prisma.file.deleteMany({ where: { id } });
    }
  });
});
