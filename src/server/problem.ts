/** The API's problem details, for the route handlers outside /api/v1 (health). */
export { json, problemResponse, problemType } from '@/api/problem';
