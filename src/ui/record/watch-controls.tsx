import type { WatchMode } from '@/engine/notify/watch';
import { SubmitButton } from '../forms/submit-button';

/**
 * Watch / Unwatch and Mute / Unmute on a record's page: plain forms (no JavaScript needed), each
 * bound to the record and the mode it sets. Watching tells the user what the record's watchers
 * are told; muting tells them nothing about it.
 */
export function WatchControls({
  canWatch,
  canMute,
  mode,
  action,
}: {
  canWatch: boolean;
  canMute: boolean;
  mode: WatchMode | null;
  /** The server action, given the mode to set (`none`: neither). */
  action: (mode: WatchMode | 'none') => (formData: FormData) => Promise<void>;
}) {
  const buttons: { label: string; pending: string; mode: WatchMode | 'none'; title: string }[] = [];
  if (canWatch && mode !== 'mute')
    buttons.push(
      mode === 'watch'
        ? { label: 'Unwatch', pending: 'Unwatching…', mode: 'none', title: 'Stop being told of what happens to it' }
        : { label: 'Watch', pending: 'Watching…', mode: 'watch', title: 'Be told of what happens to it' },
    );
  if (canMute)
    buttons.push(
      mode === 'mute'
        ? { label: 'Unmute', pending: 'Unmuting…', mode: 'none', title: 'Be told of it again' }
        : { label: 'Mute', pending: 'Muting…', mode: 'mute', title: 'Be told nothing about it' },
    );
  return (
    <>
      {buttons.map((button) => (
        <form key={button.label} action={action(button.mode)}>
          <SubmitButton variant="secondary" pendingLabel={button.pending} title={button.title}>
            {button.label}
          </SubmitButton>
        </form>
      ))}
    </>
  );
}
