import Link from 'next/link';
import { buttonClass } from '../button';

/**
 * A list's "Export CSV" (the list as shown, every page: a plain download link, never a
 * client-side navigation) and, for those who may create records, "Import CSV".
 */
export function ListCsvLinks({ exportHref, importHref }: { exportHref: string; importHref: string | null }) {
  return (
    <>
      <a href={exportHref} download className={buttonClass('secondary')}>
        Export CSV
      </a>
      {importHref ? (
        <Link href={importHref} className={buttonClass('secondary')}>
          Import CSV
        </Link>
      ) : null}
    </>
  );
}
