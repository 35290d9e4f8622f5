import { AmqpUnavailableError, backoffDelay, ConfirmTimeoutError, errorChain, HandlerTimeoutError, isConnectionError, Sleeper } from './failures';

describe('isConnectionError', () => {
  it('is true for network failures, also when wrapped in a cause or an AggregateError', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    expect(isConnectionError(refused)).toBe(true);
    expect(isConnectionError(new Error('query failed', { cause: refused }))).toBe(true);
    expect(isConnectionError(new AggregateError([new Error('x'), Object.assign(new Error('reset'), { code: 'ECONNRESET' })]))).toBe(true);
    expect(isConnectionError(new HandlerTimeoutError(10))).toBe(true);
    expect(isConnectionError(new ConfirmTimeoutError(10))).toBe(true);
    expect(isConnectionError(new AmqpUnavailableError('down'))).toBe(true);
  });

  it('is false for other errors', () => {
    expect(isConnectionError(new Error('ERR value is not an integer or out of range'))).toBe(false);
    expect(isConnectionError(Object.assign(new Error('division by zero'), { code: '22012' }))).toBe(false);
    expect(isConnectionError(undefined)).toBe(false);
    expect(isConnectionError('ECONNREFUSED')).toBe(false);
  });
});

describe('errorChain', () => {
  it('follows causes without looping', () => {
    const a = new Error('a');
    const b = new Error('b', { cause: a });
    (a as { cause?: unknown }).cause = b;
    expect(errorChain(b)).toEqual([b, a]);
  });
});

describe('backoffDelay', () => {
  it('doubles from the initial wait up to the maximum, jittered in the upper half', () => {
    expect(backoffDelay(0, { initialMs: 100, maxMs: 1000 }, () => 0)).toBe(50);
    expect(backoffDelay(0, { initialMs: 100, maxMs: 1000 }, () => 1)).toBe(100);
    expect(backoffDelay(3, { initialMs: 100, maxMs: 1000 }, () => 1)).toBe(800);
    expect(backoffDelay(4, { initialMs: 100, maxMs: 1000 }, () => 1)).toBe(1000);
    expect(backoffDelay(500, { initialMs: 100, maxMs: 1000 }, () => 0.5)).toBe(750);
    // By default no wait is longer than 3 s: a dependency that is back is noticed within 5 s.
    expect(backoffDelay(500, {}, () => 1)).toBe(3000);
  });
});

describe('Sleeper', () => {
  it('wakes every sleeper at once', async () => {
    const sleeper = new Sleeper();
    const started = Date.now();
    const sleeping = Promise.all([sleeper.sleep(60_000), sleeper.sleep(60_000)]);
    sleeper.wakeAll();
    await sleeping;
    expect(Date.now() - started).toBeLessThan(1000);
  });
});
