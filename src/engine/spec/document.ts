/**
 * The spec printed back as the nine-point document: one structure, rendered as Markdown by
 * `describe` and as HTML by the /spec page.
 */
export type DocBlock =
  | { readonly kind: 'heading'; readonly text: string }
  | { readonly kind: 'paragraph'; readonly text: string }
  | { readonly kind: 'list'; readonly items: readonly string[] }
  | { readonly kind: 'table'; readonly columns: readonly string[]; readonly rows: readonly (readonly string[])[] }
  | { readonly kind: 'code'; readonly language: string; readonly text: string }
  /** A workflow as a diagram: Mermaid text in Markdown, a drawing on the /spec page. */
  | {
      readonly kind: 'workflow';
      readonly states: readonly { readonly name: string; readonly label: string; readonly initial: boolean; readonly final: boolean }[];
      readonly edges: readonly { readonly from: string; readonly to: string; readonly label: string }[];
      readonly mermaid: string;
    };

export interface DocPoint {
  /** 1 to 9, in the fixed order of the nine points. */
  readonly number: number;
  readonly heading: string;
  /** True when the spec leaves this point empty; then it reads "not shown". */
  readonly empty: boolean;
  readonly blocks: readonly DocBlock[];
}

export interface SpecDocument {
  readonly title: string;
  readonly points: readonly DocPoint[];
}

export const POINT_HEADINGS = [
  'Purpose and audience',
  'Screens and routes',
  'Entities and fields',
  'States and transitions',
  'Validation rules',
  'Roles and permissions',
  'The calls',
  'Error catalogue',
  'Business constants and limits',
] as const;

export const NOT_SHOWN = 'not shown';
