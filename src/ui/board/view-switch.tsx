import Link from 'next/link';
import { cn } from '../cn';

/** Table or board: two links, so the choice is in the address (`view=`) and back and forward keep it. */
export function ViewSwitch({ board, tableHref, boardHref }: { board: boolean; tableHref: string; boardHref: string }) {
  const item = (active: boolean) =>
    cn('rounded px-2.5 py-1 text-sm font-medium', active ? 'bg-white text-zinc-900 shadow-xs' : 'text-zinc-600 hover:text-zinc-900');
  return (
    <nav aria-label="Show as" className="mb-3 inline-flex gap-1 rounded-md bg-zinc-100 p-1">
      <Link href={tableHref} aria-current={board ? undefined : 'page'} className={item(!board)}>
        Table
      </Link>
      <Link href={boardHref} aria-current={board ? 'page' : undefined} className={item(board)}>
        Board
      </Link>
    </nav>
  );
}
