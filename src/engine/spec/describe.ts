import { notificationBlocks } from './describe/notifications';
import type { DocBlock, DocPoint, SpecDocument } from './document';
import { NOT_SHOWN, POINT_HEADINGS } from './document';
import type { AppModel } from './model';
import { entityBlocks, purposeBlocks, screenBlocks, workflowBlocks, type PointBlocks } from './describe/product';
import { accessBlocks, callBlocks, constantBlocks, errorBlocks, validationBlocks } from './describe/rules';
import { withWebhookBlocks } from './describe/webhooks';

/** The builder of each of the nine points, by its heading; null means "not shown". */
const POINT_BUILDERS: Readonly<Record<(typeof POINT_HEADINGS)[number], (model: AppModel) => PointBlocks>> = {
  'Purpose and audience': purposeBlocks,
  'Screens and routes': screenBlocks,
  'Entities and fields': entityBlocks,
  'States and transitions': workflowBlocks,
  'Validation rules': validationBlocks,
  'Roles and permissions': accessBlocks,
  'The calls': (model) => {
    const blocks = [...(withWebhookBlocks(model, callBlocks(model)) ?? []), ...notificationBlocks(model)];
    return blocks.length > 0 ? blocks : null;
  },
  'Error catalogue': errorBlocks,
  'Business constants and limits': constantBlocks,
};

/**
 * The spec printed back as the nine-point document. Texts are plain, with `code` spans in
 * backticks as the one inline mark; a point the spec leaves empty has no blocks.
 */
export function describeDocument(model: AppModel): SpecDocument {
  return {
    title: model.title,
    points: POINT_HEADINGS.map((heading, index): DocPoint => {
      const blocks = POINT_BUILDERS[heading](model);
      return { number: index + 1, heading, empty: blocks === null, blocks: blocks ?? [] };
    }),
  };
}

/** The nine-point document as Markdown (GitHub flavour: tables, fenced code). */
export function describeMarkdown(model: AppModel): string {
  return renderMarkdown(describeDocument(model));
}

export function renderMarkdown(document: SpecDocument): string {
  const sections = [`# ${document.title} — the spec`];
  for (const point of document.points) {
    sections.push(`## ${point.number}. ${point.heading}`);
    if (point.empty) sections.push(NOT_SHOWN);
    else sections.push(...point.blocks.map(blockMarkdown));
  }
  return `${sections.join('\n\n')}\n`;
}

function blockMarkdown(block: DocBlock): string {
  switch (block.kind) {
    case 'heading':
      return `### ${block.text}`;
    case 'paragraph':
      return block.text;
    case 'list':
      return block.items.map((item) => `- ${item}`).join('\n');
    case 'table':
      return [
        tableRow(block.columns),
        tableRow(block.columns.map(() => '---')),
        ...block.rows.map((row) => tableRow(block.columns.map((_, i) => row[i] ?? ''))),
      ].join('\n');
    case 'code': {
      const fence = block.text.includes('```') ? '~~~~' : '```';
      return `${fence}${block.language}\n${block.text}\n${fence}`;
    }
    case 'workflow':
      return `\`\`\`mermaid\n${block.mermaid}\n\`\`\``;
  }
}

function tableRow(cells: readonly string[]): string {
  return `| ${cells.map(tableCell).join(' | ')} |`;
}

/** A table cell stays on one line, and a "|" inside it does not end the cell. */
function tableCell(text: string): string {
  return text.replace(/\r?\n/g, ' ').replace(/\|/g, '\\|');
}
