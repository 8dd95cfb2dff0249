import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadSpecFile, resolveSpecPath } from './load-file';
import { SpecError } from './spec-error';

const root = process.cwd();
const temp = mkdtempSync(path.join(os.tmpdir(), 'ninefold-spec-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

function writeSpec(name: string, source: string): string {
  const file = path.join(temp, name);
  writeFileSync(file, source);
  return file;
}

describe('loadSpecFile', () => {
  it('loads the helpdesk example through the `ninefold` import', async () => {
    const model = await loadSpecFile(path.join(root, 'examples/helpdesk/ninefold.spec.ts'));
    expect(model.name).toBe('helpdesk');
    expect(model.entities.map((e) => e.name)).toEqual(['organization', 'ticket', 'comment']);
    expect(model.entitiesByName.ticket!.workflow?.initial).toBe('new');
    expect(model.constants.maxOpenTicketsPerCustomer!.value).toBe(20);
  });

  it('loads the seed example', async () => {
    const model = await loadSpecFile(path.join(root, 'examples/seed/ninefold.spec.ts'));
    expect(model.name).toBe('seed');
    expect(model.title).toBe('Seed');
    expect(model.entities).toEqual([]);
  });

  it('loads the CRM example', async () => {
    const model = await loadSpecFile(path.join(root, 'examples/crm/ninefold.spec.ts'));
    expect(model.name).toBe('crm');
    expect(model.entities.map((e) => e.plural)).toEqual(['companies', 'contacts', 'deals', 'notes']);
    expect(model.entitiesByName.deal!.workflow?.states.filter((s) => s.final).map((s) => s.name)).toEqual(['won', 'lost']);
  });

  it('loads a spec file outside the project', async () => {
    const file = writeSpec(
      'outside.spec.ts',
      `import { defineApp, constant } from 'ninefold';
       const limit: number = 3;
       export default defineApp({
         name: 'outside',
         entities: { note: { fields: { title: { type: 'text', maxLength: limit } } } },
         constants: { answer: { value: 42 } },
       });
       export const unused = constant('answer');`,
    );
    const model = await loadSpecFile(file);
    expect(model.entitiesByName.note!.fieldsByName.title!.column).toBe('title');
  });

  it('throws the SpecError of a wrong spec, listing each issue', async () => {
    const file = writeSpec(
      'wrong.spec.ts',
      `import { defineApp } from 'ninefold';
       export default defineApp({
         name: 'wrong',
         entities: { ticket: { fields: { assignee: { type: 'reference', to: 'agent' } } } },
       });`,
    );
    const error = await loadSpecFile(file).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SpecError);
    expect((error as SpecError).message).toContain('entities.ticket.fields.assignee.to: unknown entity "agent"');
  });

  it('reads a file afresh after it changed', async () => {
    const file = writeSpec('changing.spec.ts', `export default { name: 'first' };`);
    expect((await loadSpecFile(file)).name).toBe('first');
    writeFileSync(file, `export default { name: 'second' };`);
    expect((await loadSpecFile(file)).name).toBe('second');
  });

  it('names a missing file', async () => {
    const missing = path.join(temp, 'missing.spec.ts');
    await expect(loadSpecFile(missing)).rejects.toThrow(`Spec file not found: ${missing}`);
  });

  it('explains a file without a default export', async () => {
    const file = writeSpec('no-default.spec.ts', `export const spec = { name: 'x' };`);
    await expect(loadSpecFile(file)).rejects.toThrow(`The spec file ${file} has no default export`);
  });

  it('explains a default export that is not an object', async () => {
    const file = writeSpec('number.spec.ts', `export default 42;`);
    await expect(loadSpecFile(file)).rejects.toThrow(
      `The default export of ${file} must be the spec object (defineApp({ ... })), got number`,
    );
  });

  it('names the file when it cannot be run', async () => {
    const file = writeSpec('broken.spec.ts', `export default { name: ;`);
    await expect(loadSpecFile(file)).rejects.toThrow(`Could not load the spec file ${file}`);
  });
});

describe('resolveSpecPath', () => {
  it('defaults to the helpdesk example under the root', () => {
    expect(resolveSpecPath({ NINEFOLD_ROOT: '/srv/app' })).toBe('/srv/app/examples/helpdesk/ninefold.spec.ts');
  });

  it('resolves NINEFOLD_SPEC against the root, and keeps an absolute one', () => {
    expect(resolveSpecPath({ NINEFOLD_ROOT: '/srv/app', NINEFOLD_SPEC: 'specs/shop.spec.ts' })).toBe('/srv/app/specs/shop.spec.ts');
    expect(resolveSpecPath({ NINEFOLD_ROOT: '/srv/app', NINEFOLD_SPEC: '/tmp/x.spec.ts' })).toBe('/tmp/x.spec.ts');
  });

  it('uses the working directory when no root is set', () => {
    expect(resolveSpecPath({})).toBe(path.join(process.cwd(), 'examples/helpdesk/ninefold.spec.ts'));
  });
});
