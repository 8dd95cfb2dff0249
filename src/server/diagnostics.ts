import 'server-only';
import { notFound } from 'next/navigation';
import { connection } from 'next/server';

/** The diagnostic pages exist only when NINEFOLD_DIAGNOSTICS=1; otherwise they are a plain 404. */
export async function requireDiagnostics(): Promise<void> {
  await connection();
  if (process.env.NINEFOLD_DIAGNOSTICS !== '1') notFound();
}
