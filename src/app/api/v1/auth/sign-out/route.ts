import { json, problemResponse } from '@/server/problem';
import { signOut } from '@/server/session';

export async function POST(): Promise<Response> {
  try {
    await signOut();
    return json({ signedOut: true });
  } catch (error) {
    return problemResponse(error);
  }
}
