'use client';

import { useState } from 'react';
import { buttonClass } from './button';

/** Copies a text to the clipboard. Without JavaScript (or clipboard access) the text beside it still selects whole. */
export function CopyButton({ text }: { text: string }) {
  const [copied, setCopied] = useState<boolean | null>(null);
  return (
    <button
      type="button"
      className={buttonClass('secondary')}
      onClick={() => {
        if (!navigator.clipboard) return setCopied(false);
        navigator.clipboard.writeText(text).then(
          () => setCopied(true),
          () => setCopied(false),
        );
      }}
    >
      <span aria-live="polite">{copied === true ? 'Copied' : copied === false ? 'Select and copy' : 'Copy'}</span>
    </button>
  );
}
