'use client';

import { type ComponentProps, useRef, useState } from 'react';

/** Where a browser with JavaScript sends each chosen file: the API's upload, with the session cookie. */
const UPLOAD_URL = '/api/v1/files';

interface Upload {
  readonly key: number;
  readonly name: string;
  readonly percent: number;
  /** The staged file's id once the API took it. */
  readonly id?: number;
  readonly error?: string;
  readonly request?: XMLHttpRequest;
}

/**
 * A file input that, with JavaScript, uploads each chosen file as soon as it is chosen
 * (XMLHttpRequest, for its progress events) with a progress bar and a Cancel button per file,
 * then hands the form the staged ids as hidden inputs of the field (the server action attaches
 * them, as it does the ids it keeps on edit) and empties the native input, so that the bytes are
 * not posted twice. Without JavaScript (before hydration too) it is the native input, whose files
 * go with the form. Loaded only by forms with a file field (field-input.tsx).
 */
export function FileUploadInput({ name, required, ...input }: ComponentProps<'input'> & { name: string }) {
  const [uploads, setUploads] = useState<readonly Upload[]>([]);
  const nextKey = useRef(0);
  const change = (key: number, patch: Partial<Upload>) =>
    setUploads((current) => current.map((upload) => (upload.key === key ? { ...upload, ...patch } : upload)));

  const send = (file: File) => {
    const key = nextKey.current++;
    const request = new XMLHttpRequest();
    request.open('POST', UPLOAD_URL);
    request.responseType = 'json';
    request.upload.onprogress = (event) => {
      if (event.lengthComputable) change(key, { percent: Math.floor((event.loaded / event.total) * 100) });
    };
    request.onload = () => {
      const body = request.response as { items?: { id: number }[]; detail?: string } | null;
      const id = request.status === 201 ? body?.items?.[0]?.id : undefined;
      change(
        key,
        id === undefined
          ? { error: body?.detail ?? `The upload failed (${request.status}).`, request: undefined }
          : { id, percent: 100, request: undefined },
      );
    };
    request.onerror = () => change(key, { error: 'The upload failed: the connection was lost.', request: undefined });
    const body = new FormData();
    body.append('file', file);
    request.send(body);
    return { key, name: file.name, percent: 0, request };
  };

  const drop = (upload: Upload) => {
    // An aborted upload is never staged; an uploaded one left out of the form is swept after a day.
    upload.request?.abort();
    setUploads((current) => current.filter((u) => u.key !== upload.key));
  };

  const uploaded = uploads.some((upload) => upload.id !== undefined);
  return (
    <div className="space-y-2">
      <input
        {...input}
        name={name}
        type="file"
        required={required && !uploaded}
        onChange={(event) => {
          const chosen = [...(event.currentTarget.files ?? [])];
          event.currentTarget.value = '';
          setUploads((current) => [...current, ...chosen.map(send)]);
        }}
      />
      {uploads.length > 0 ? (
        <ul className="space-y-1.5">
          {uploads.map((upload) => {
            const progressId = `${input.id ?? name}-upload-${upload.key}`;
            return (
              <li key={upload.key} className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm">
                {upload.id !== undefined ? <input type="hidden" name={name} value={String(upload.id)} /> : null}
                <label htmlFor={progressId} className="min-w-0 break-all text-zinc-800">
                  {upload.name}
                </label>
                <progress id={progressId} max={100} value={upload.percent} className="h-2 w-32 accent-accent-600" />
                <span className="w-10 text-xs text-zinc-600 tabular-nums" aria-hidden="true">
                  {upload.percent}%
                </span>
                <button type="button" onClick={() => drop(upload)} className="text-xs font-medium text-accent-700 hover:underline">
                  {upload.id === undefined && !upload.error ? 'Cancel' : 'Remove'}
                  <span className="sr-only"> {upload.name}</span>
                </button>
                {upload.error ? (
                  <p role="alert" className="basis-full text-sm text-red-600">
                    {upload.name}: {upload.error}
                  </p>
                ) : null}
              </li>
            );
          })}
        </ul>
      ) : null}
    </div>
  );
}
