/** The shortest password the setup form accepts. */
export const MIN_PASSWORD_LENGTH = 8;

/** Where to go after signing in: only a path of this site (src/server/request-return-path.ts). */
export { safeReturnPath as safeNextPath } from './request-return-path';
