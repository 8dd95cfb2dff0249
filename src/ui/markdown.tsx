import Markdown, { type Components } from 'react-markdown';

/**
 * User-written Markdown, rendered safely: react-markdown never renders raw HTML (it is shown
 * as text), and its default URL transform drops `javascript:` and other unsafe links.
 */
const components: Components = {
  a: ({ node: _node, ...props }) => (
    <a {...props} rel="noopener noreferrer nofollow" className="text-accent-700 underline underline-offset-2 hover:text-accent-600" />
  ),
  h1: ({ node: _node, ...props }) => <h3 {...props} className="mt-4 mb-2 text-lg font-semibold" />,
  h2: ({ node: _node, ...props }) => <h4 {...props} className="mt-4 mb-2 text-base font-semibold" />,
  h3: ({ node: _node, ...props }) => <h5 {...props} className="mt-3 mb-1 text-sm font-semibold" />,
  p: ({ node: _node, ...props }) => <p {...props} className="my-2 leading-relaxed" />,
  ul: ({ node: _node, ...props }) => <ul {...props} className="my-2 list-disc pl-6" />,
  ol: ({ node: _node, ...props }) => <ol {...props} className="my-2 list-decimal pl-6" />,
  blockquote: ({ node: _node, ...props }) => <blockquote {...props} className="my-2 border-l-2 border-zinc-300 pl-3 text-zinc-600" />,
  code: ({ node: _node, ...props }) => <code {...props} className="rounded bg-zinc-100 px-1 py-0.5 font-mono text-[0.85em]" />,
  pre: ({ node: _node, ...props }) => <pre {...props} tabIndex={0} className="my-2 overflow-x-auto rounded-md bg-zinc-100 p-3 text-sm" />,
};

export function MarkdownText({ children }: { children: string }) {
  return (
    <div className="text-sm text-zinc-800">
      <Markdown components={components} skipHtml>
        {children}
      </Markdown>
    </div>
  );
}
