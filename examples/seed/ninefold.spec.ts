import { defineApp } from 'ninefold';

/** The empty spec: every point "not shown". Ninefold still serves the shell. */
export default defineApp({
  name: 'seed',
});
