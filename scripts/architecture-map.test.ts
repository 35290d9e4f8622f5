import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** ARCHITECTURE.md's "Spec rule → file" table: one file per rule, and every file exists. */
describe('ARCHITECTURE.md rule → file map', () => {
  const root = join(__dirname, '..');
  const document = readFileSync(join(root, 'ARCHITECTURE.md'), 'utf8');
  const section = document.slice(document.indexOf('## Spec rule → file'));
  const rows = section
    .split('\n')
    .filter((line) => line.startsWith('| ') && !line.startsWith('| rule') && !line.startsWith('|---'))
    .map((line) => {
      const cells = line.split(' | ');
      return { rule: cells[0].slice(2), where: cells[cells.length - 1].replace(/ \|$/, '') };
    });

  it('has rows', () => {
    expect(rows.length).toBeGreaterThan(30);
  });

  it.each(rows.map((row) => [row.rule, row.where]))('%s → exactly one existing file', (_rule, where) => {
    const paths = [...where.matchAll(/`([^`]+)`/g)].map((match) => match[1]);
    expect(paths).toHaveLength(1);
    expect(existsSync(join(root, paths[0]))).toBe(true);
  });

  it('names no file that is gone, anywhere in the document', () => {
    const named = [...document.matchAll(/`((?:libs|services|scripts|docs|k8s|deploy|bench|test-e2e)\/[^`\s]+\.(?:ts|mjs|cjs|json|md|yaml|sql|sh))`/g)].map((match) => match[1]);
    const missing = named.filter((path) => !path.includes('<') && !existsSync(join(root, path)));
    expect(missing).toEqual([]);
  });
});
