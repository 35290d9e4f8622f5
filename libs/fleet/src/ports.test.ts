import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type Server } from 'node:net';

const DIR = join(tmpdir(), 'svc-ports');

/** A fresh copy of the module with its range pinned to [first, last). */
function load(first: number, last: number): typeof import('./ports') {
  process.env.SVC_PORT_RANGE_FIRST = String(first);
  process.env.SVC_PORT_RANGE_LAST = String(last);
  let loaded: typeof import('./ports') | undefined;
  jest.isolateModules(() => {
    loaded = require('./ports');
  });
  delete process.env.SVC_PORT_RANGE_FIRST;
  delete process.env.SVC_PORT_RANGE_LAST;
  return loaded!;
}

// A range of its own per test run, away from the fleets' range and the ephemeral one.
const BASE = 15_000 + (process.pid % 400) * 10;

describe('freePort', () => {
  it('hands out distinct ports below the ephemeral range and claims each with this pid', async () => {
    const { freePort } = load(BASE, BASE + 5);
    const ports = [await freePort(), await freePort(), await freePort()];
    expect(new Set(ports).size).toBe(3);
    for (const port of ports) {
      expect(port).toBeGreaterThanOrEqual(BASE);
      expect(port).toBeLessThan(BASE + 5);
      expect(Number(readFileSync(join(DIR, String(port)), 'utf8'))).toBe(process.pid);
    }
  });

  it('skips a port another live process has claimed and takes over the claim of a dead one', async () => {
    mkdirSync(DIR, { recursive: true });
    const live = BASE + 5;
    const dead = BASE + 6;
    writeFileSync(join(DIR, String(live)), String(process.ppid));
    writeFileSync(join(DIR, String(dead)), '2147483646');
    const { freePort } = load(live, live + 2);
    const port = await freePort();
    expect(port).toBe(dead);
    expect(Number(readFileSync(join(DIR, String(dead)), 'utf8'))).toBe(process.pid);
    expect(Number(readFileSync(join(DIR, String(live)), 'utf8'))).toBe(process.ppid);
    await expect(freePort()).rejects.toThrow(/no free port/);
    rmSync(join(DIR, String(live)));
  });

  it('skips a port something outside the fleets is listening on, and leaves no claim on it', async () => {
    const busy = BASE + 8;
    const server: Server = await new Promise((done) => {
      const s = createServer();
      s.listen(busy, '127.0.0.1', () => done(s));
    });
    try {
      const { freePort } = load(busy, busy + 2);
      expect(await freePort()).toBe(busy + 1);
      expect(existsSync(join(DIR, String(busy)))).toBe(false);
    } finally {
      server.close();
    }
  });
});
