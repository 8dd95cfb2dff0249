import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { createJiti } from 'jiti';
import { buildModel } from './build';
import type { AppModel } from './model';
import { SpecError } from './spec-error';
import type { AppSpec } from './types';

export const DEFAULT_SPEC_PATH = 'examples/helpdesk/ninefold.spec.ts';

type Env = Readonly<Record<string, string | undefined>>;

/** The project root: where `src/engine/spec/index.ts` (the `ninefold` module of spec files) lives. */
export function projectRoot(env: Env = process.env): string {
  return env.NINEFOLD_ROOT ?? process.cwd();
}

/** The absolute path of the spec to serve: NINEFOLD_SPEC (relative to the root), else the helpdesk. */
export function resolveSpecPath(env: Env = process.env): string {
  return path.resolve(projectRoot(env), env.NINEFOLD_SPEC || DEFAULT_SPEC_PATH);
}

/**
 * Loads a spec file (TypeScript or JavaScript) at run time, checks it and returns its model.
 * The file's `import { defineApp, constant } from 'ninefold'` resolves to this engine's spec
 * module. A wrong spec throws `SpecError` listing every issue; a file that cannot be read or
 * run throws an Error that names the file.
 */
export async function loadSpecFile(file: string): Promise<AppModel> {
  const absolute = path.resolve(file);
  if (!existsSync(absolute) || !statSync(absolute).isFile()) {
    throw new Error(`Spec file not found: ${absolute} (set NINEFOLD_SPEC to the path of a spec file)`);
  }
  const root = projectRoot();
  // The id only anchors resolution; the spec's own relative imports resolve from the spec file.
  const jiti = createJiti(path.join(root, 'ninefold-spec-loader.js'), {
    alias: { ninefold: path.join(root, 'src/engine/spec/index.ts') },
    // Keep the module namespace as it is, so a missing default export is seen as missing.
    interopDefault: false,
    // A spec edited between two loads in one process (tests, the CLI) is read afresh.
    moduleCache: false,
  });

  let namespace: unknown;
  try {
    namespace = await jiti.import(absolute);
  } catch (error) {
    if (error instanceof SpecError) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`Could not load the spec file ${absolute}: ${reason}`, { cause: error });
  }
  return buildModel(defaultExport(namespace, absolute));
}

function defaultExport(namespace: unknown, file: string): AppSpec {
  const spec = typeof namespace === 'object' && namespace !== null && 'default' in namespace ? namespace.default : undefined;
  if (spec === undefined) {
    throw new Error(`The spec file ${file} has no default export; write \`export default defineApp({ ... })\``);
  }
  if (typeof spec !== 'object' || spec === null || Array.isArray(spec)) {
    const got = spec === null ? 'null' : Array.isArray(spec) ? 'a list' : typeof spec;
    throw new Error(`The default export of ${file} must be the spec object (defineApp({ ... })), got ${got}`);
  }
  // From here validateSpec (inside buildModel) checks every property at run time.
  return spec as AppSpec;
}
