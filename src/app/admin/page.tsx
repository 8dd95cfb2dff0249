import { redirect } from 'next/navigation';

/** The administration area has one page so far. */
export default function AdminPage() {
  redirect('/admin/users');
}
