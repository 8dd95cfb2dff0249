import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ACTION_ARGUMENTS } from './arguments';
import type * as account from './account';
import type * as auth from './auth';
import type * as board from './board';
import type * as bulkActions from './bulk-actions';
import type * as choices from './choices';
import type * as invite from './invite';
import type * as markdownPreview from './markdown-preview';
import type * as palette from './palette';
import type * as records from './records';
import type * as related from './related';
import type * as theme from './theme';
import type * as transitions from './transitions';
import type * as users from './users';
import type * as views from './views';
import type * as webhooks from './webhooks';

/** Every module of server actions under src/ ('use server' at its top), and the names it exports. */
function serverActions(): string[] {
  const src = path.resolve(__dirname, '../..');
  return readdirSync(src, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name) && !entry.name.includes('.test.'))
    .map((entry) => readFileSync(path.join(entry.parentPath, entry.name), 'utf8'))
    .filter((text) => /^\s*['"]use server['"]/.test(text))
    .flatMap((text) => [...text.matchAll(/^export async function (\w+)/gm)].map((match) => match[1]!));
}

type ArgumentOf<T> = unknown extends T
  ? 'value'
  : T extends FormData
    ? 'form'
    : T extends string
      ? 'text'
      : T extends number
        ? 'id'
        : T extends object
          ? 'state'
          : never;
type ArgumentsOf<F> = F extends (...args: infer P) => unknown ? { readonly [I in keyof P]: ArgumentOf<P[I]> } : never;
type Actions = typeof account &
  typeof auth &
  typeof board &
  typeof bulkActions &
  typeof choices &
  typeof invite &
  typeof markdownPreview &
  typeof palette &
  typeof records &
  typeof related &
  typeof theme &
  typeof transitions &
  typeof users &
  typeof views &
  typeof webhooks;

// Each entry against its action's parameters, by the type checker (`npm run typecheck`).
const _checked: { readonly [N in keyof Actions]: ArgumentsOf<Actions[N]> } = ACTION_ARGUMENTS;

describe('what each server action takes', () => {
  it('is listed for every server action of the application, and only for those', () => {
    // The type of the list checks each entry against its action's parameters; this, that no
    // module of actions is missing from it (the server would not check its calls' arguments).
    expect(Object.keys(ACTION_ARGUMENTS).sort()).toEqual(serverActions().sort());
  });
});
