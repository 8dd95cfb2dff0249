/** What a spec file imports: `import { defineApp, constant } from 'ninefold'`. */
export { defineApp, constant } from './define';
export type { RecordOf } from './define';
/** Custom call handlers throw catalogue errors by code: `throw new NinefoldError('TICKET_CLOSED')`. */
export { NinefoldError } from '../errors/ninefold-error';
export type * from './types';
