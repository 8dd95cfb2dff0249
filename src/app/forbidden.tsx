import Link from 'next/link';
import { BUILT_IN_ERRORS } from '@/engine/errors/catalogue';
import { buttonClass } from '@/ui/button';

/** A page ops refused for this actor (HTTP 403), in the catalogue's words. */
export default function Forbidden() {
  return (
    <div className="mx-auto my-16 max-w-xl px-4 text-center sm:px-6">
      <p className="text-sm font-semibold text-accent-600">403</p>
      <h1 className="mt-2 text-2xl font-semibold tracking-tight text-zinc-900">{BUILT_IN_ERRORS.FORBIDDEN.title}</h1>
      <p className="mt-2 text-sm text-zinc-600">{BUILT_IN_ERRORS.FORBIDDEN.message}</p>
      <div className="mt-6">
        <Link href="/" className={buttonClass('primary')}>
          Go home
        </Link>
      </div>
    </div>
  );
}
