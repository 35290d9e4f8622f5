import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import wabt from 'wabt';
import { LOGITS_WASM } from './logits-wasm';

describe('logits-wasm.ts', () => {
  it('holds logits.wat as compiled (node scripts/build-logits-wasm.mjs after an edit)', async () => {
    const toolkit = await wabt();
    const module = toolkit.parseWat('logits.wat', readFileSync(join(__dirname, 'logits.wat'), 'utf8'), { simd: true });
    module.validate();
    expect(Buffer.from(module.toBinary({}).buffer).equals(Buffer.from(LOGITS_WASM))).toBe(true);
  });
});
