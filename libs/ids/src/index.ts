import { randomBytes, randomFillSync } from 'node:crypto';

// Ids are drawn from a pool of random bytes refilled 4 KiB at a time (256 ids) from the same
// CSPRNG, instead of one randomBytes(16) call per id: a call answers with several ids (request,
// response, items), and each randomBytes call costs a native round trip and an allocation.
const POOL_BYTES = 4096;
const pool = Buffer.allocUnsafe(POOL_BYTES);
let poolOffset = POOL_BYTES;

/** 32 lowercase hex characters (RULINGS 4: hex in every id is lowercase). */
export function hex32(): string {
  if (poolOffset + 16 > POOL_BYTES) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  const hex = pool.toString('hex', poolOffset, poolOffset + 16);
  poolOffset += 16;
  return hex;
}

const HEX32 = /^[0-9a-f]{32}$/;

/** The id forms of the spec (Identifier forms). */
export const ids = {
  requestId: () => `req_${hex32()}`,
  /** A chat completion id and its call id share the hex. */
  completion: () => {
    const hex = hex32();
    return { completionId: `chatcmpl-${hex}`, callId: `call_${hex}`, hex };
  },
  callId: () => `call_${hex32()}`,
  response: () => `resp_${hex32()}`,
  conversation: () => `conv_${hex32()}`,
  message: () => `msg_${hex32()}`,
  functionCall: () => `fc_${hex32()}`,
  functionCallOutput: () => `fco_${hex32()}`,
  compaction: () => `cmp_${hex32()}`,
  file: () => `file_${hex32()}`,
  batch: () => `batch_${hex32()}`,
  organization: () => `org_${hex32()}`,
  account: () => `acct_${hex32()}`,
  project: () => `proj_${hex32()}`,
  apiKeyId: () => `key_${hex32()}`,
  credit: () => `cred_${hex32()}`,
};

/** Stream item ids before the completed event reports stored ids. */
export function streamItemId(kind: 'msg' | 'fc', responseId: string, index: number): string {
  return `${kind}_${responseId}_${index}`;
}

export type IdPrefix = 'req' | 'call' | 'resp' | 'conv' | 'msg' | 'fc' | 'fco' | 'cmp' | 'file' | 'batch';

/** True when `value` is `<prefix>_` (or `chatcmpl-`) followed by 32 lowercase hex. */
export function isId(prefix: IdPrefix | 'chatcmpl', value: string): boolean {
  const sep = prefix === 'chatcmpl' ? '-' : '_';
  const head = `${prefix}${sep}`;
  return value.startsWith(head) && HEX32.test(value.slice(head.length));
}

/** The hex of a chat completion id or a call id. */
export function hexOf(id: string): string | undefined {
  const match = /^(?:chatcmpl-|call_)([0-9a-f]{32})$/.exec(id);
  return match?.[1];
}

const KEY_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A new API key: `svc_live_` + 43 letters and digits (spec: Authentication 1), unbiased. */
export function newApiKey(): string {
  let out = '';
  while (out.length < 43) {
    for (const byte of randomBytes(64)) {
      // 62 * 4 = 248: reject bytes >= 248 so every character is equally likely
      if (byte < 248 && out.length < 43) out += KEY_ALPHABET[byte % 62];
    }
  }
  return `svc_live_${out}`;
}

export const API_KEY_PATTERN = /^svc_live_[A-Za-z0-9]{43}$/;
