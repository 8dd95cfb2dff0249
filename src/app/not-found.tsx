import Link from 'next/link';
import { buttonClass } from '@/ui/button';

export default function NotFound() {
  return (
    <div className="mx-auto my-16 max-w-xl px-4 text-center sm:px-6">
      <p className="text-sm font-semibold text-accent-600">404</p>
      <h1 className="mt-2 text-2xl font-semibold tracking-tight text-zinc-900">Page not found</h1>
      <p className="mt-2 text-sm text-zinc-600">This page or record does not exist, or you cannot see it.</p>
      <div className="mt-6">
        <Link href="/" className={buttonClass('primary')}>
          Go home
        </Link>
      </div>
    </div>
  );
}
