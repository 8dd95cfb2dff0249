import type { SpecIssue } from './spec-error';
import type { AppSpec } from './types';

/** Placeholder: full checks are being written. Returns every problem found in the spec. */
export function validateSpec(_spec: AppSpec): SpecIssue[] {
  return [];
}
