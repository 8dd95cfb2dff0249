import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/** The lint rules that keep access in the policy: a reintroduced read outside it must fail. */
async function problems(file: string, code: string): Promise<string[]> {
  const [result] = await new ESLint().lintText(code, { filePath: file });
  return (result?.messages ?? []).map((m) => m.ruleId ?? m.message);
}

const PROBE = `import type { EntityModel } from '../spec/model';
export const probe = (e: EntityModel, roles: readonly string[]) => [Object.keys(e.permissions).length, e.writtenBy === 'calls', roles.includes('admin')];
`;

describe('the policy lint rules', () => {
  it('refuse grants, calls-only marks and the admin role read outside the policy', async () => {
    expect(await problems('src/engine/ops/probe.ts', PROBE)).toEqual([
      'no-restricted-properties',
      'no-restricted-properties',
      'no-restricted-syntax',
    ]);
    expect(await problems('src/server/probe.ts', PROBE)).toEqual([
      'no-restricted-properties',
      'no-restricted-properties',
      'no-restricted-syntax',
    ]);
  });

  it('let the policy itself read them', async () => {
    expect(await problems('src/engine/access/policy-probe.ts', PROBE.replace("roles.includes('admin')", 'roles.length'))).toEqual([]);
  });
});
