import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { catalog } from '@svc/catalog';
import { createRouter } from '../routing/route';
import { requestFor } from '../routing/synthetic.fixture';
import { TASK_TYPES, loadClassifier, trainedClassifierId, type ClassifyInput } from './index';
import { createLlmClassifier, type LlmClassifier } from './llm-classifier';

// The LLM classifier against the real vendor simulator over the vendors' wire protocols. The
// simulator is built (tsc -b, incremental) and started as its own process on a free port, as
// the fleet runs it; a second one answers only after a long time to first token.

const ROOT = resolve(__dirname, '..', '..', '..', '..');
const SIM_MAIN = resolve(ROOT, 'services', 'vendor-sim', 'dist', 'main.js');
const MODEL = 'vendor-1/orion-nano-5';

interface Sim {
  url: string;
  child: ChildProcess;
}

/** Starts node services/vendor-sim/dist/main.js on a free port; resolves with its URL once it logs `listening`. */
function startSim(extraEnv: Record<string, string> = {}): Promise<Sim> {
  const child = spawn(process.execPath, [SIM_MAIN], {
    cwd: ROOT,
    env: { ...process.env, VENDOR_SIM_HOST: '127.0.0.1', VENDOR_SIM_PORT: '0', LOG_LEVEL: 'info', OTEL_SDK_DISABLED: 'true', METRICS_PORT: '0', ...extraEnv },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => void (stderr += chunk.toString()));
  return new Promise((resolvePromise, reject) => {
    const timer = setTimeout(() => reject(new Error(`vendor-sim did not start in 20 s: ${stderr}`)), 20_000);
    child.once('exit', (code) => reject(new Error(`vendor-sim exited with ${code}: ${stderr}`)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      let entry: { message?: string; port?: number };
      try {
        entry = JSON.parse(line);
      } catch {
        return;
      }
      if (entry.message === 'listening' && typeof entry.port === 'number') {
        clearTimeout(timer);
        resolvePromise({ url: `http://127.0.0.1:${entry.port}`, child });
      }
    });
  });
}

function stopSim(sim: Sim | undefined): Promise<void> {
  if (!sim || sim.child.exitCode !== null) return Promise.resolve();
  return new Promise((resolvePromise) => {
    sim.child.once('exit', () => resolvePromise());
    sim.child.kill('SIGKILL');
  });
}

const trained = loadClassifier();
const TRAINED_ID = trainedClassifierId(trained.meta);

const input: ClassifyInput = {
  system: 'You are a coding agent working in the user repository. Use the tools to read and edit files.',
  messages: [
    { role: 'user', content: 'Fix the failing unit test in src/billing/invoice.test.ts, the totals are off by one cent' },
    { role: 'assistant', content: '[tool call read_file]' },
    { role: 'tool', content: 'export function total(lines) { return lines.reduce((a, l) => a + l.amount, 0) }' },
  ],
};

function classifier(simUrl: string, model = MODEL, timeoutMs = 5000) {
  const fallback = { classify: jest.fn((value: ClassifyInput) => trained.classify(value)), meta: trained.meta };
  const warn = jest.fn();
  return { llm: createLlmClassifier({ catalog, model, simUrl, vendorKeys: {}, timeoutMs, fallback, logger: { warn } }), fallback, warn };
}

function expectSchemaValid(result: Awaited<ReturnType<LlmClassifier['classify']>>) {
  expect(TASK_TYPES).toContain(result.taskType);
  expect(Number.isInteger(result.difficulty)).toBe(true);
  expect(result.difficulty).toBeGreaterThanOrEqual(1);
  expect(result.difficulty).toBeLessThanOrEqual(5);
  expect(['normal', 'high']).toContain(result.stakes);
  expect(result.confidence).toBeGreaterThanOrEqual(0);
  expect(result.confidence).toBeLessThanOrEqual(1);
  expect(typeof result.reason).toBe('string');
  expect(result.reason.length).toBeGreaterThan(0);
}

describe('LLM classifier through the vendor simulator', () => {
  let sim: Sim | undefined;
  let slowSim: Sim | undefined;

  beforeAll(async () => {
    execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-b', 'services/vendor-sim'], { cwd: ROOT, stdio: 'pipe' });
    [sim, slowSim] = await Promise.all([startSim(), startSim({ SIM_TTFT_MS: '5000' })]);
  }, 180_000);

  afterAll(async () => {
    await Promise.all([stopSim(sim), stopSim(slowSim)]);
  });

  it('returns a schema-valid classification from the model over the OpenAI protocol', async () => {
    const { llm, fallback, warn } = classifier(sim!.url);
    const result = await llm.classify(input);
    expect(warn).not.toHaveBeenCalled();
    expect(fallback.classify).not.toHaveBeenCalled();
    expect(result.classifier).toBe(`llm:${MODEL}`);
    expectSchemaValid(result);
    // The simulator's answer is seeded by the request: the same request, the same classification.
    expect(await llm.classify(input)).toEqual(result);
  });

  it.each([
    ['Anthropic', 'vendor-2/lyric-haiku-4.5'],
    ['Gemini', 'vendor-3/lumen-2.5-flash-lite'],
  ])('works over the %s protocol too (%s)', async (_protocol, model) => {
    const { llm, warn } = classifier(sim!.url, model);
    const result = await llm.classify(input);
    expect(warn).not.toHaveBeenCalled();
    expect(result.classifier).toBe(`llm:${model}`);
    expectSchemaValid(result);
  });

  it('is what svc.routing reports when the router uses it', async () => {
    const { llm } = classifier(sim!.url);
    const router = createRouter({ catalog, classifier: llm });
    const result = await router.route(requestFor({ system_prompt: input.system!, user: 'Translate this paragraph into French: the invoice is due on Friday.' }));
    expect(result.routing).toMatchObject({ classifier: `llm:${MODEL}`, trigger: 'no_prior_decision' });
    expect(TASK_TYPES).toContain(result.routing!.task_type);
  });

  it('falls back to the trained classifier within about timeoutMs when the model is slow', async () => {
    const { llm, fallback, warn } = classifier(slowSim!.url, MODEL, 400);
    const started = Date.now();
    const result = await llm.classify(input);
    const elapsed = Date.now() - started;
    expect(result).toEqual({ ...trained.classify(input), classifier: TRAINED_ID });
    expect(result.taskType).toMatch(/^code:/); // the trained model's answer for a coding agent turn
    expect(fallback.classify).toHaveBeenCalledTimes(1);
    expect(warn).toHaveBeenCalledWith(expect.any(String), expect.objectContaining({ failure: 'timeout' }));
    expect(elapsed).toBeGreaterThanOrEqual(390);
    expect(elapsed).toBeLessThan(1500);
  });
});
