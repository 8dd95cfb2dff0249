import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ACTION_ARGUMENTS } from './arguments';

/** Every module of server actions under src/ ('use server' at its top), and the names it exports. */
function serverActions(): string[] {
  const src = path.resolve(__dirname, '../..');
  return readdirSync(src, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name) && !entry.name.includes('.test.'))
    .map((entry) => readFileSync(path.join(entry.parentPath, entry.name), 'utf8'))
    .filter((text) => /^\s*['"]use server['"]/.test(text))
    .flatMap((text) => [...text.matchAll(/^export async function (\w+)/gm)].map((match) => match[1]));
}

describe('what each server action takes', () => {
  it('is listed for every server action of the application, and only for those', () => {
    // The type of the list checks each entry against its action's parameters; this, that no
    // module of actions is missing from it (the server would not check its calls' arguments).
    expect(Object.keys(ACTION_ARGUMENTS).sort()).toEqual(serverActions().sort());
  });
});
