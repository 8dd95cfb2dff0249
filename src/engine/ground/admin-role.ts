/**
 * The built-in role of the bootstrap administrator (the first user, and every user of a spec
 * that declares no roles). It has no special power on an entity whose permissions the spec
 * declares; an entity whose spec declares no permissions at all is open to it alone.
 */
export const ADMIN_ROLE = 'admin';
