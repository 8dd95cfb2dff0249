/**
 * The name the list toolbar's disclosures share (Filters, Columns, Save view): the browser keeps
 * one of a named group open at a time, so their panels, which open over the list, never cover one
 * another. No script needed.
 */
export const LIST_TOOLS = 'list-tools';
