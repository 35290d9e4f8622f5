import { readFileSync } from 'node:fs';
import { join } from 'node:path';
const { render, variables } = require('./config-reference.cjs');

describe('configuration reference', () => {
  it('names every environment variable a config schema reads', () => {
    const document = readFileSync(join(__dirname, '..', 'docs', 'configuration.md'), 'utf8');
    for (const name of variables() as string[]) expect(document).toContain(`\`${name}\``);
  });

  it('is the document the schemas generate (no drift)', () => {
    expect(readFileSync(join(__dirname, '..', 'docs', 'configuration.md'), 'utf8')).toBe(render());
  });
});
