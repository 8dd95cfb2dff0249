/** One problem in a spec: where it is (a dotted path) and what is wrong. */
export interface SpecIssue {
  readonly path: string;
  readonly message: string;
}

/** Thrown when a spec is loaded and found wrong; the message lists every issue as `path: message`. */
export class SpecError extends Error {
  readonly issues: readonly SpecIssue[];
  constructor(issues: readonly SpecIssue[]) {
    super(`The spec is not valid:\n${issues.map((i) => `  ${i.path}: ${i.message}`).join('\n')}`);
    this.name = 'SpecError';
    this.issues = issues;
  }
}
