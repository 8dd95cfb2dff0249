import { requireDiagnostics } from '@/server/diagnostics';
import { ThrowButton } from '@/ui/throw-button';

/** Renders fine; its button makes a client component throw, to show the client-side fallback. */
export default async function ClientErrorDiagnostic() {
  await requireDiagnostics();
  return (
    <div className="mx-auto my-16 max-w-xl px-4 sm:px-6">
      <ThrowButton />
    </div>
  );
}
