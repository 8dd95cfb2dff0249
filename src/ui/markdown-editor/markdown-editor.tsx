'use client';

import { type ComponentProps, type KeyboardEvent, type ReactNode, useRef, useState, useTransition } from 'react';
import { flushSync } from 'react-dom';
import { cn } from '../cn';
import { usePreviewMarkdown } from './preview-action';
import { ownValue } from '@/engine/spec/own-names';

type Tab = 'write' | 'preview';
const TABS: readonly { readonly tab: Tab; readonly label: string }[] = [
  { tab: 'write', label: 'Write' },
  { tab: 'preview', label: 'Preview' },
];

/**
 * A Markdown field's textarea with Write and Preview tabs (WAI-ARIA tabs: arrow keys, Home and End
 * move between them). The preview is rendered on the server by the pages' own sanitising
 * renderer. Without JavaScript the tabs are not shown and the field is the plain textarea.
 */
export function MarkdownEditor({ textarea }: { textarea: ComponentProps<'textarea'> & { id: string } }) {
  const { id } = textarea;
  const [tab, setTab] = useState<Tab>('write');
  const [preview, setPreview] = useState<{ readonly source: string; readonly node: ReactNode } | null>(null);
  const [pending, startTransition] = useTransition();
  const input = useRef<HTMLTextAreaElement>(null);
  const tabs = useRef<Partial<Record<Tab, HTMLButtonElement | null>>>({});
  const previewMarkdown = usePreviewMarkdown();

  const select = (next: Tab, focus = false) => {
    setTab(next);
    if (focus) tabs.current[next]?.focus();
    const source = input.current?.value ?? '';
    if (next === 'preview' && previewMarkdown && preview?.source !== source) {
      startTransition(async () => {
        const node = await previewMarkdown(source);
        setPreview({ source, node });
      });
    }
  };

  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    const index = TABS.findIndex((t) => t.tab === tab);
    const moves: Record<string, number> = { ArrowRight: index + 1, ArrowLeft: index - 1 + TABS.length, Home: 0, End: TABS.length - 1 };
    const move = ownValue(moves, event.key);
    const target = move === undefined ? undefined : TABS[move % TABS.length];
    if (!target) return;
    event.preventDefault();
    select(target.tab, true);
  };

  if (!previewMarkdown) return <textarea {...textarea} />;

  return (
    <div>
      <div role="tablist" aria-label="Write or preview" className="mb-1.5 flex gap-1 noscript:hidden">
        {TABS.map(({ tab: value, label }) => (
          <button
            key={value}
            ref={(element) => {
              tabs.current[value] = element;
            }}
            type="button"
            role="tab"
            id={`${id}-${value}-tab`}
            aria-selected={tab === value}
            aria-controls={`${id}-${value}`}
            tabIndex={tab === value ? 0 : -1}
            onClick={() => select(value)}
            onKeyDown={onKeyDown}
            className={cn(
              'rounded-md px-2.5 py-1 text-xs font-medium transition-colors',
              tab === value ? 'bg-zinc-200 text-zinc-900' : 'text-zinc-600 hover:bg-zinc-100 hover:text-zinc-900',
            )}
          >
            {label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`${id}-write`} aria-labelledby={`${id}-write-tab`} hidden={tab !== 'write'}>
        <textarea
          {...textarea}
          ref={input}
          // A required field left empty on the Preview tab: back to Write, so the browser can point at it.
          onInvalid={() => flushSync(() => setTab('write'))}
        />
      </div>
      <div
        role="tabpanel"
        id={`${id}-preview`}
        aria-labelledby={`${id}-preview-tab`}
        aria-busy={pending}
        hidden={tab !== 'preview'}
        tabIndex={0}
        data-markdown-preview
        className="min-h-32 rounded-md bg-white px-3 py-2 ring-1 ring-zinc-300 ring-inset"
      >
        {pending || !preview ? <p className="text-sm text-zinc-500">Rendering the preview…</p> : preview.node}
      </div>
    </div>
  );
}
