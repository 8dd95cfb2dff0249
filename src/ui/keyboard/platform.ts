import { useSyncExternalStore } from 'react';

const never = () => () => {};

/** Whether the browser runs on an Apple system, where Cmd plays Ctrl's part ("⌘K"). False on the server. */
export function useIsApple(): boolean {
  return useSyncExternalStore(
    never,
    () => /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent),
    () => false,
  );
}
