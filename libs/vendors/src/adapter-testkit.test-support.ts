import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import nock from 'nock';
import { VendorError } from './errors';
import type { StreamEvent } from './types';

/** Shared by the adapters' fixture tests: fixtures, stream collection and the nock lifecycle. */
export function fixtures(dir: string) {
  const fixture = (name: string) => readFileSync(join(dir, '__fixtures__', name), 'utf8');
  return { fixture, json: (name: string): Record<string, unknown> => JSON.parse(fixture(name)) };
}

export async function collect(events: AsyncIterable<StreamEvent>): Promise<StreamEvent[]> {
  const out: StreamEvent[] = [];
  for await (const event of events) out.push(event);
  return out;
}

/** The events yielded before the stream failed, and the failure. */
export async function collectUntilFailure(events: AsyncIterable<StreamEvent>): Promise<{ events: StreamEvent[]; error: VendorError }> {
  const out: StreamEvent[] = [];
  try {
    for await (const event of events) out.push(event);
  } catch (error) {
    return { events: out, error: error as VendorError };
  }
  throw new Error('the stream ended without a failure');
}

export async function failure(promise: Promise<unknown>): Promise<VendorError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(VendorError);
    return error as VendorError;
  }
  throw new Error('the call succeeded');
}

/** No real network; every mock set up by a test must be used by it. */
export function useNock(): void {
  beforeAll(() => nock.disableNetConnect());
  afterEach(() => {
    const pending = nock.pendingMocks();
    nock.abortPendingRequests();
    nock.cleanAll();
    expect(pending).toEqual([]);
  });
  afterAll(() => nock.enableNetConnect());
}
