import { requireDiagnostics } from '@/server/diagnostics';

/** Throws while rendering on the server, to show the server-side fallback and its digest. */
export default async function ServerErrorDiagnostic(): Promise<never> {
  await requireDiagnostics();
  throw new Error('diagnostic server-side exception');
}
