import { HandlerTimeoutError } from '@svc/amqp';
import { isDependencyOutage } from './outage';

/** The shapes Prisma 7 (adapter-pg), pg and ioredis throw, as seen against real servers. */
function prismaRaw(cause: Record<string, unknown>, message = 'Raw query failed.') {
  return Object.assign(new Error(message), { name: 'PrismaClientKnownRequestError', code: 'P2010', meta: { driverAdapterError: { name: 'DriverAdapterError', cause } } });
}

describe('isDependencyOutage', () => {
  it.each([
    ['Postgres not reachable (adapter kind)', prismaRaw({ kind: 'DatabaseNotReachable', host: '127.0.0.1', port: 1 }, "Raw query failed. Code: `N/A`. Message: `Can't reach database server at 127.0.0.1:1`")],
    ['pg connect timeout (a stalled server)', new Error('Connection terminated due to connection timeout')],
    ['pg connection dropped mid-query', new Error('Connection terminated unexpectedly')],
    ['Postgres shutting down (57P01)', prismaRaw({ originalCode: '57P01', kind: 'postgres', code: '57P01', message: 'terminating connection due to administrator command' })],
    ['Postgres starting up (57P03)', prismaRaw({ originalCode: '57P03', kind: 'postgres', code: '57P03' })],
    ['too many connections (53300)', prismaRaw({ originalCode: '53300', kind: 'TooManyConnections' })],
    ['serialization failure (40001)', prismaRaw({ originalCode: '40001', kind: 'TransactionWriteConflict' })],
    ['Prisma pool timeout', Object.assign(new Error('Timed out fetching a new connection'), { name: 'PrismaClientKnownRequestError', code: 'P2024' })],
    ['Prisma initialization', Object.assign(new Error('cannot connect'), { name: 'PrismaClientInitializationError' })],
    ['ioredis out of retries', Object.assign(new Error('Reached the max retries per request limit (which is 20). Refer to "maxRetriesPerRequest" option for details.'), { name: 'MaxRetriesPerRequestError' })],
    ['ioredis closed', new Error('Connection is closed.')],
    ['Redis loading', Object.assign(new Error('LOADING Redis is loading the dataset in memory'), { name: 'ReplyError' })],
    ['Redis replica after failover', Object.assign(new Error("READONLY You can't write against a read only replica."), { name: 'ReplyError' })],
    ['refused, wrapped', new Error('settle failed', { cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }) })],
    ['a hung handler', new HandlerTimeoutError(30_000)],
  ])('%s is an outage', (_label, error) => {
    expect(isDependencyOutage(error)).toBe(true);
  });

  it.each([
    ['integer out of range (22003)', prismaRaw({ originalCode: '22003', originalMessage: 'integer out of range', kind: 'ValueOutOfRange' })],
    ['division by zero (22012)', prismaRaw({ originalCode: '22012', kind: 'postgres', code: '22012' })],
    ['unique violation (23505)', prismaRaw({ originalCode: '23505', kind: 'UniqueConstraintViolation' })],
    ['a failing Lua script', Object.assign(new Error('ERR value is not an integer or out of range script: 01c8…, on @user_script:20.'), { name: 'ReplyError' })],
    ['a bug', new TypeError("Cannot read properties of undefined (reading 'call_id')")],
  ])('%s is not an outage', (_label, error) => {
    expect(isDependencyOutage(error)).toBe(false);
  });
});
