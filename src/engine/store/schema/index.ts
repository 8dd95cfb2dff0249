export {
  desiredSchema,
  systemTables,
  searchExpression,
  USER_TABLE,
  SESSION_TABLE,
  API_TOKEN_TABLE,
  INVITE_TABLE,
  SIGN_IN_ATTEMPT_TABLE,
  META_TABLE,
  AUDIT_TABLE,
  SEARCH_COLUMN,
} from './desired';
export { introspectSchema } from './introspect';
export { planSchema, isWideningTypeChange } from './plan';
export { syncSchema, SchemaChangeRefused, ALLOW_DESTRUCTIVE_HINT, type SyncOptions, type SyncReport } from './sync';
export type * from './types';
