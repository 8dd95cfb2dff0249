/** The actions on records that a grant names, in the order the spec document lists them. */
export const RECORD_ACTIONS = ['list', 'read', 'create', 'update', 'delete'] as const;
export type RecordAction = (typeof RECORD_ACTIONS)[number];
