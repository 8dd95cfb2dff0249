import Link from 'next/link';
import { buttonClass } from './button';

/** Keyset pagination: forward by cursor, and back to the first page. */
export function Pagination({ firstHref, nextHref }: { firstHref: string | null; nextHref: string | null }) {
  if (!firstHref && !nextHref) return null;
  return (
    <nav aria-label="Pagination" className="mt-4 flex items-center justify-between gap-2">
      <div>
        {firstHref ? (
          <Link href={firstHref} className={buttonClass('secondary')}>
            First page
          </Link>
        ) : null}
      </div>
      <div>
        {nextHref ? (
          <Link href={nextHref} className={buttonClass('secondary')}>
            Next page
          </Link>
        ) : null}
      </div>
    </nav>
  );
}
