import { createLogger } from '@svc/logger';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp, type AppOptions } from './app';
import { PromptCache } from './cache';
import type { PromptBlock, SimRequest } from './request';

/** In-process simulator on an ephemeral port, for HTTP-level tests here and in other packages. */
export interface RunningSim {
  url: string;
  cache: PromptCache;
  /** Moves the cache's clock forward. */
  advance(ms: number): void;
  close(): Promise<void>;
}

export async function startSim(options: Partial<AppOptions> = {}): Promise<RunningSim> {
  let offset = 0;
  const cache = options.cache ?? new PromptCache({ now: () => Date.now() + offset });
  const app = createApp({ logger: createLogger({ service: 'vendor-sim', silent: true }), ...options, cache });
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    cache,
    advance: (ms) => {
      offset += ms;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Splits an SSE body into events ({event?, data}). */
export function parseSse(body: string): Array<{ event?: string; data: string }> {
  return body
    .split(/\r?\n\r?\n/)
    .map((raw) => raw.trim())
    .filter(Boolean)
    .map((raw) => {
      const out: { event?: string; data: string } = { data: '' };
      for (const line of raw.split(/\r?\n/)) {
        if (line.startsWith('event:')) out.event = line.slice(6).trim();
        else if (line.startsWith('data:')) out.data += line.slice(5).trim();
      }
      return out;
    });
}

/** A neutral request with defaults, for the domain-level tests. */
export function simRequest(overrides: Partial<SimRequest> & { user?: string } = {}): SimRequest {
  const { user = 'hello there', ...rest } = overrides;
  const blocks: PromptBlock[] = [{ text: user }];
  return {
    model: 'sim-model',
    blocks,
    seedMaterial: JSON.stringify(['test', rest.model ?? 'sim-model', user]),
    lastUserText: user,
    lastIsToolResult: false,
    tools: [],
    toolChoice: { mode: 'none' },
    stop: [],
    format: { type: 'text' },
    ...rest,
  };
}

/** Parsed JSON body, loosely typed: tests assert on its shape. */
export async function json(response: Response | Promise<Response>): Promise<any> {
  return (await response).json();
}
