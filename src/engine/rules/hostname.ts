/** A host name as a `format: 'hostname'` text field takes it (example.com): the field's schema and the spec's samples read it. */
export const HOSTNAME = /^(?=.{1,253}$)(?!-)[a-z0-9-]{1,63}(?<!-)(\.(?!-)[a-z0-9-]{1,63}(?<!-))+$/i;
