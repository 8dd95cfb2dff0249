'use client';

import { useEffect, useRef, useState, type FormEvent } from 'react';
import { buttonClass } from '../button';
import { inputClass } from '../forms/field-input';
import { SubmitButton } from '../forms/submit-button';
import { ImportOutcome } from './import-outcome';
import type { ImportState, ImportStreamLine } from './import-state';

type Progress = Extract<ImportStreamLine, { type: 'progress' }>;

const PHASE_TEXT: Record<Progress['phase'], string> = {
  reading: 'Reading the file',
  checking: 'Checking the rows',
  writing: 'Writing the records',
};

/** Reads the NDJSON stream of the import: progress lines, then the outcome. */
async function readStream(response: Response, onProgress: (progress: Progress) => void): Promise<ImportState> {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = '';
  for (;;) {
    const { value, done } = await reader.read();
    buffered += value ?? '';
    const lines = buffered.split('\n');
    buffered = lines.pop() ?? '';
    for (const text of lines) {
      if (!text.trim()) continue;
      const line = JSON.parse(text) as ImportStreamLine;
      if (line.type === 'result') return line.state;
      onProgress(line);
    }
    if (done) throw new Error('The import stopped before it finished.');
  }
}

/**
 * The import page's form: it sends the file to the import's route (/<plural>/import/run).
 * Without JavaScript the browser posts it there and the server answers with this page and the
 * report (`report`; src/server/csv/import-door.ts). With it, the file goes to the same route as a
 * progress stream, so the page shows how far the import is, and the same file can be imported
 * again with its good rows only, at a click.
 */
export function ImportForm({
  report,
  runUrl,
  one,
  many,
  listHref,
  maxSizeText,
}: {
  /** The report of the form posted without JavaScript; idle otherwise. */
  report: ImportState;
  runUrl: string;
  /** The entity's label and plural label, in lower case ("ticket", "tickets"). */
  one: string;
  many: string;
  listHref: string;
  maxSizeText: string;
}) {
  const [streamed, setStreamed] = useState<ImportState | null>(null);
  const [progress, setProgress] = useState<Progress | null>(null);
  const [running, setRunning] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const file = useRef<File | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const state = streamed ?? report;

  // The outcome replaces the progress: the focus goes to its heading, so it is read out and the keyboard starts there.
  useEffect(() => {
    if (state.kind !== 'idle') heading.current?.focus();
  }, [state]);

  async function run(chosen: File, goodRows: boolean) {
    setRunning(true);
    setFailure(null);
    setStreamed(null);
    setProgress(null);
    const body = new FormData();
    body.set('file', chosen);
    if (goodRows) body.set('goodRows', '1');
    try {
      const response = await fetch(runUrl, { method: 'POST', body, headers: { Accept: 'application/x-ndjson' } });
      if (!response.ok || !response.body) throw new Error((await response.text()).trim() || `The import failed (${response.status}).`);
      setStreamed(await readStream(response, setProgress));
    } catch (error) {
      setFailure(error instanceof Error ? error.message : String(error));
    } finally {
      setRunning(false);
    }
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    const form = event.currentTarget;
    const chosen = (form.elements.namedItem('file') as HTMLInputElement).files?.[0];
    if (!chosen) return; // the browser says the file is required
    event.preventDefault();
    if (running) return;
    file.current = chosen;
    void run(chosen, (form.elements.namedItem('goodRows') as HTMLInputElement).checked);
  }

  const percent = progress && progress.total > 0 ? Math.floor((progress.done / progress.total) * 100) : 0;
  const importGood =
    file.current !== null ? (
      <button type="button" className={buttonClass('primary')} onClick={() => void run(file.current!, true)} disabled={running}>
        Import the good rows
      </button>
    ) : (
      <p>To import the good rows only, choose the file again above, tick “Import the good rows”, and import.</p>
    );

  return (
    <div>
      <form action={runUrl} method="post" encType="multipart/form-data" onSubmit={submit} className="space-y-4">
        <div>
          <label htmlFor="import-file" className="mb-1 block text-sm font-medium text-zinc-800">
            CSV file
          </label>
          <input
            id="import-file"
            name="file"
            type="file"
            accept=".csv,text/csv"
            required
            aria-describedby="import-size"
            className={`${inputClass} file:mr-3 file:rounded file:border-0 file:bg-zinc-100 file:px-2 file:py-1 file:text-sm file:font-medium file:text-zinc-800`}
          />
          <p id="import-size" className="mt-1 text-xs text-zinc-600">
            UTF-8 text, a header row naming the columns; at most {maxSizeText}.
          </p>
        </div>
        <div className="flex items-start gap-2">
          <input id="import-good-rows" name="goodRows" type="checkbox" value="1" className="mt-0.5 size-4 rounded border-zinc-300" />
          <label htmlFor="import-good-rows" className="text-sm text-zinc-800">
            Import the good rows and leave out the ones with problems
            <span className="block text-xs text-zinc-600">Unticked, nothing is written unless every row is good.</span>
          </label>
        </div>
        <SubmitButton pendingLabel="Importing…" aria-disabled={running || undefined}>
          {running ? 'Importing…' : 'Import'}
        </SubmitButton>
      </form>

      <div role="status" aria-live="polite" className="mt-4 text-sm text-zinc-700">
        {running ? (
          <div className="space-y-1">
            <p>
              {progress
                ? `${PHASE_TEXT[progress.phase]}: ${progress.done.toLocaleString('en-US')} of ${progress.total.toLocaleString('en-US')} rows`
                : 'Sending the file…'}
            </p>
            <progress className="h-2 w-full max-w-md accent-accent-600" max={100} value={percent} aria-label="Import progress">
              {percent}%
            </progress>
          </div>
        ) : null}
      </div>
      {failure ? (
        <p role="alert" className="mt-4 text-sm text-red-700">
          {failure}
        </p>
      ) : null}
      <ImportOutcome state={state} one={one} many={many} listHref={listHref} importGood={importGood} headingRef={heading} />
    </div>
  );
}
