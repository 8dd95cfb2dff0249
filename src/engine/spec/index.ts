/** What a spec file imports: `import { defineApp, constant } from 'ninefold'`. */
export { defineApp, constant } from './define';
export type { RecordOf } from './define';
export type * from './types';
