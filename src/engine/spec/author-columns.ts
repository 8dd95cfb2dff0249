/**
 * The system columns that name people (who created a record, who changed it last): read by the
 * field rules like any field, so a grant may hide them (`hiddenFields`), and `public` hides them
 * by default. The other system columns are readable by whoever may see the record.
 */
export const AUTHOR_COLUMNS: readonly string[] = ['createdBy', 'updatedBy'];
