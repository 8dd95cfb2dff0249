import { describe, expect, it } from 'vitest';
import helpdesk from '../../../../examples/helpdesk/ninefold.spec';
import { buildModel } from '../build';
import { describeMarkdown } from '../describe';
import { mayReadDocumentation } from '../screens/documentation';
import type { AppSpec, DocumentationSpec } from '../types';
import { validateSpec } from '../validate';

/** The helpdesk with `screens.documentation` set to this (raw: a spec from a JavaScript file may hold anything). */
function withDocumentation(documentation: unknown): AppSpec {
  return { ...helpdesk, screens: { ...helpdesk.screens, documentation: documentation as DocumentationSpec } };
}

describe('screens.documentation', () => {
  it('defaults to administrators only', () => {
    const model = buildModel(helpdesk);
    expect(model.documentation.roles).toEqual(['admin']);
    expect(mayReadDocumentation(model.documentation, ['admin'])).toBe(true);
    expect(mayReadDocumentation(model.documentation, ['agent'])).toBe(false);
    expect(mayReadDocumentation(model.documentation, ['customer'])).toBe(false);
    expect(mayReadDocumentation(model.documentation, [])).toBe(false);
  });

  it('opens the documents to the roles it names, the built-in admin among them only when named', () => {
    const model = buildModel(withDocumentation({ roles: ['agent'] }));
    expect(mayReadDocumentation(model.documentation, ['agent'])).toBe(true);
    expect(mayReadDocumentation(model.documentation, ['customer', 'agent'])).toBe(true);
    expect(mayReadDocumentation(model.documentation, ['admin'])).toBe(false);
    expect(validateSpec(withDocumentation({ roles: ['admin', 'agent'] }))).toEqual([]);
  });

  it.each([
    {
      kind: 'an unknown role',
      value: { roles: ['agent', 'boss'] },
      path: 'screens.documentation.roles[1]',
      message: 'unknown role "boss" (roles: admin, agent, customer)',
    },
    { kind: 'no role', value: { roles: [] }, path: 'screens.documentation.roles', message: 'no role could read the documentation' },
    { kind: 'roles missing', value: {}, path: 'screens.documentation.roles', message: 'is required' },
    { kind: 'roles not a list', value: { roles: 'admin' }, path: 'screens.documentation.roles', message: 'must be a list of names' },
    {
      kind: 'a duplicate role',
      value: { roles: ['agent', 'agent'] },
      path: 'screens.documentation.roles[1]',
      message: 'duplicate role "agent"',
    },
    {
      kind: 'an unknown key',
      value: { roles: ['admin'], role: ['agent'] },
      path: 'screens.documentation.role',
      message: 'unknown key in documentation',
    },
    { kind: 'not an object', value: ['admin'], path: 'screens.documentation', message: '' },
  ])('reports $kind with its place', ({ value, path, message }) => {
    const issues = validateSpec(withDocumentation(value));
    const found = issues.find((i) => i.path === path && i.message.includes(message));
    expect(found, `expected ${path}: …${message}… in\n${issues.map((i) => `${i.path}: ${i.message}`).join('\n')}`).toBeDefined();
  });

  it('is described: who reads the spec and the API reference, and who sees which navigation entry', () => {
    const text = describeMarkdown(buildModel(withDocumentation({ roles: ['admin', 'agent'] })));
    expect(text).toContain('and the API reference at `/api/docs`, to admin, agent (`screens.documentation`)');
    expect(text).toContain('other signed-in users get the 403 page');
    expect(text).toContain("(a scope with `via` alone) is met on that record's page instead");
    expect(text).toContain('Spec and API are there for admin, agent, Users for administrators.');
  });
});
