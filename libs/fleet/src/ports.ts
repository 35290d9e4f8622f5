import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Ports for fleets that run side by side on one machine (parallel test workers, benches).
 *
 * A port from `listen(0)` is closed again before the service binds it, and in that gap the kernel
 * may hand the same port to anyone else on the machine who asks for port 0 (another fleet's gRPC
 * server, a test's HTTP server, an outgoing connection's local port). So fleet ports come from
 * below the kernel's ephemeral range, where port 0 and outgoing connections never land, and each is
 * claimed across processes with an exclusive file (`<tmp>/svc-ports/<port>`, holding the pid) that
 * lives as long as the claiming process. A claim whose process is gone is taken over.
 */

const FIRST = Number(process.env.SVC_PORT_RANGE_FIRST ?? 20_000);
const LAST = Number(process.env.SVC_PORT_RANGE_LAST ?? 32_000);
const DIR = join(tmpdir(), 'svc-ports');
const claimed = new Set<number>();
let cursor = FIRST + Math.floor(Math.random() * (LAST - FIRST));
let cleanupInstalled = false;

function alive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function claim(port: number): boolean {
  const file = join(DIR, String(port));
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      const fd = openSync(file, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      let owner = NaN;
      try {
        owner = Number(readFileSync(file, 'utf8'));
      } catch {
        continue; // released between the two calls: try again
      }
      if (owner === process.pid || alive(owner)) return false;
      try {
        unlinkSync(file); // the claimant is gone
      } catch {
        /* someone else took it over first */
      }
    }
  }
  return false;
}

function release(port: number): void {
  try {
    if (Number(readFileSync(join(DIR, String(port)), 'utf8')) === process.pid) unlinkSync(join(DIR, String(port)));
  } catch {
    /* already gone */
  }
}

function bindable(port: number): Promise<boolean> {
  return new Promise((done) => {
    const server = createServer();
    server.unref();
    server.once('error', () => done(false));
    // No host: the dual-stack wildcard, which conflicts with a listener on any address.
    server.listen({ port, exclusive: true }, () => server.close(() => done(true)));
  });
}

/** A port no other fleet on this machine has or will be given while this process lives. */
export async function freePort(): Promise<number> {
  mkdirSync(DIR, { recursive: true });
  if (!cleanupInstalled) {
    cleanupInstalled = true;
    process.once('exit', () => {
      for (const port of claimed) release(port);
    });
  }
  for (let tries = 0; tries < LAST - FIRST; tries += 1) {
    const port = cursor;
    cursor = cursor + 1 >= LAST ? FIRST : cursor + 1;
    if (claimed.has(port) || !claim(port)) continue;
    if (await bindable(port)) {
      claimed.add(port);
      return port;
    }
    release(port);
  }
  throw new Error(`no free port in ${FIRST}-${LAST}`);
}
