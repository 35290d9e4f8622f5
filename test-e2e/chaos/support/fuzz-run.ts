import { connect } from 'node:net';
import type { FuzzCase, HttpCase, RawCase } from './fuzz-cases';
import { isEnvelope, REQUEST_ID } from './traffic';

/**
 * Sends fuzz cases and judges each answer against the bar: never a 5xx, and every refusal (4xx)
 * in the spec's envelope {error:{message,type,param,code}} with an x-request-id. A 200 stream
 * must not carry an error event (no vendor fault is injected), nor a 200 body an error object.
 */

export interface Answer {
  status: number;
  requestId: string;
  contentType: string;
  body: string;
}

export interface Verdict {
  category: string;
  ms: number;
  /** HTTP statuses of the answers ('none' when there was none). */
  statuses: string[];
  problem?: string;
}

function judgeAnswer(answer: Answer, head: boolean): string | undefined {
  let body: unknown;
  try {
    body = answer.body ? JSON.parse(answer.body) : undefined;
  } catch {
    body = undefined;
  }
  const code = (body as { error?: { code?: string } } | undefined)?.error?.code;
  if (answer.status >= 500) return `${answer.status} ${code ?? ''}`.trim();
  if (answer.status >= 400) {
    if (!REQUEST_ID.test(answer.requestId)) return `${answer.status} without x-request-id`;
    if (!head && !isEnvelope(body)) return `${answer.status} not in the envelope: ${answer.body.slice(0, 120)}`;
    return undefined;
  }
  if (answer.status === 200 && answer.contentType.includes('text/event-stream')) {
    const error = answer.body.split('\n').find((line) => line.startsWith('data: {"error"'));
    if (error) return `200 stream with an error event: ${error.slice(0, 160)}`;
  } else if (answer.status === 200 && (body as { error?: unknown } | undefined)?.error) {
    return `200 with an error object: ${answer.body.slice(0, 160)}`;
  }
  return undefined;
}

async function sendHttp(origin: string, fuzz: HttpCase, timeoutMs: number): Promise<{ answers: Answer[]; error?: string }> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    const response = await fetch(`${origin}${fuzz.path}`, { method: fuzz.method, headers: fuzz.headers, body: fuzz.body, redirect: 'manual', signal: controller.signal });
    const body = await response.text();
    return { answers: [{ status: response.status, requestId: response.headers.get('x-request-id') ?? '', contentType: response.headers.get('content-type') ?? '', body }] };
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    return { answers: [], error: controller.signal.aborted ? `no answer within ${timeoutMs} ms` : `client error: ${cause?.code ?? cause?.message ?? (error as Error).message}` };
  } finally {
    clearTimeout(timer);
  }
}

/** Parses the HTTP/1.1 responses in `data` (Content-Length or chunked bodies); stops at an incomplete one. */
export function parseResponses(data: Buffer): Answer[] {
  const answers: Answer[] = [];
  let offset = 0;
  for (;;) {
    const headEnd = data.indexOf('\r\n\r\n', offset);
    if (headEnd < 0) return answers;
    const head = data.subarray(offset, headEnd).toString('latin1').split('\r\n');
    const status = Number(/^HTTP\/\d\.\d (\d{3})/.exec(head[0] ?? '')?.[1] ?? 0);
    const headers = new Map<string, string>();
    for (const line of head.slice(1)) {
      const colon = line.indexOf(':');
      if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
    }
    let cursor = headEnd + 4;
    let body = Buffer.alloc(0);
    if (headers.get('transfer-encoding')?.includes('chunked')) {
      const parts: Buffer[] = [];
      for (;;) {
        const lineEnd = data.indexOf('\r\n', cursor);
        if (lineEnd < 0) return answers;
        const size = parseInt(data.subarray(cursor, lineEnd).toString('latin1'), 16);
        if (Number.isNaN(size)) return answers;
        if (data.length < lineEnd + 2 + size + 2) return answers;
        parts.push(data.subarray(lineEnd + 2, lineEnd + 2 + size));
        cursor = lineEnd + 2 + size + 2;
        if (size === 0) break;
      }
      body = Buffer.concat(parts);
    } else {
      const length = Number(headers.get('content-length') ?? 0);
      if (data.length < cursor + length) return answers;
      body = data.subarray(cursor, cursor + length);
      cursor += length;
    }
    // An interim answer (100 Continue) is not the answer.
    if (status < 100 || status >= 200) answers.push({ status, requestId: headers.get('x-request-id') ?? '', contentType: headers.get('content-type') ?? '', body: body.toString('utf8') });
    offset = cursor;
  }
}

async function sendRaw(port: number, fuzz: RawCase, timeoutMs: number): Promise<{ answers: Answer[]; error?: string; closed: boolean }> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let settled = false;
    const socket = connect({ port, host: '127.0.0.1' });
    const finish = (error?: string, closed = false) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ answers: parseResponses(Buffer.concat(chunks)), error, closed });
    };
    const timer = setTimeout(() => finish(fuzz.answers > 0 ? `no complete answer within ${timeoutMs} ms` : undefined), fuzz.answers > 0 ? timeoutMs : 1500);
    socket.on('connect', () => {
      socket.write(fuzz.bytes, () => {
        if (fuzz.end) socket.end();
      });
    });
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      if (fuzz.answers > 0 && parseResponses(Buffer.concat(chunks)).length >= fuzz.answers) finish();
    });
    socket.on('error', () => finish(undefined, true));
    socket.on('close', () => finish(undefined, true));
  });
}

export async function runCase(origin: string, port: number, fuzz: FuzzCase, timeoutMs: number): Promise<Verdict> {
  const startedAt = Date.now();
  const verdict = await judgeCase(origin, port, fuzz, timeoutMs);
  return { ...verdict, ms: Date.now() - startedAt };
}

async function judgeCase(origin: string, port: number, fuzz: FuzzCase, timeoutMs: number): Promise<Omit<Verdict, 'ms'>> {
  if (fuzz.kind === 'http') {
    const { answers, error } = await sendHttp(origin, fuzz, timeoutMs);
    if (error) return { category: fuzz.category, statuses: ['none'], problem: error };
    const problem = judgeAnswer(answers[0]!, fuzz.method === 'HEAD');
    return { category: fuzz.category, statuses: [String(answers[0]!.status)], ...(problem ? { problem } : {}) };
  }
  const { answers, error } = await sendRaw(port, fuzz, timeoutMs);
  const problems = answers.map((answer) => judgeAnswer(answer, false)).filter((problem): problem is string => Boolean(problem));
  if (answers.length < fuzz.answers) problems.push(error ?? `connection closed after ${answers.length} of ${fuzz.answers} answers`);
  return { category: fuzz.category, statuses: answers.length > 0 ? answers.map((answer) => String(answer.status)) : ['none'], ...(problems.length > 0 ? { problem: problems.join('; ') } : {}) };
}

/** A short description of a case for the report (never the key). */
export function describeCase(fuzz: FuzzCase, secrets: string[]): string {
  const text = fuzz.kind === 'http' ? `${fuzz.method} ${fuzz.path.slice(0, 120)} ${JSON.stringify(Object.keys(fuzz.headers))} ${(typeof fuzz.body === 'string' ? fuzz.body : (fuzz.body?.toString('latin1') ?? '')).slice(0, 240)}` : fuzz.bytes.toString('latin1').slice(0, 300);
  return secrets.reduce((described, secret) => described.split(secret).join('<key>'), text);
}
