import type { EmailChoice, KindPreference } from '@/engine/notify/preferences';
import type { NotificationChannel } from '@/engine/spec/types';
import { SubmitButton } from '../forms/submit-button';

export interface KindChoice {
  readonly kind: string;
  readonly label: string;
  readonly channels: readonly NotificationChannel[];
  readonly preference: KindPreference;
}

const EMAIL_LABELS: Readonly<Record<EmailChoice, string>> = { each: 'Each one', digest: 'Daily digest', off: 'Off' };

/**
 * The user's choice per kind of notification on /account: in the app on or off; e-mail for each,
 * a daily digest, or off. One plain form (it works without JavaScript); a kind that is never sent
 * by a channel has no control for it.
 */
export function NotificationPreferencesForm({
  kinds,
  saved,
  action,
}: {
  kinds: readonly KindChoice[];
  saved: boolean;
  action: (formData: FormData) => Promise<void>;
}) {
  return (
    <form action={action} className="space-y-4">
      <ul className="divide-y divide-zinc-100">
        {kinds.map(({ kind, label, channels, preference }) => (
          <li key={kind} className="flex flex-wrap items-center justify-between gap-3 py-3 first:pt-0">
            <span className="text-sm font-medium text-zinc-900" id={`kind-${kind}`}>
              {label}
            </span>
            <span className="flex flex-wrap items-center gap-4">
              {channels.includes('inApp') ? (
                <label className="flex items-center gap-2 text-sm text-zinc-700">
                  <input type="checkbox" name={`inApp:${kind}`} defaultChecked={preference.inApp} aria-describedby={`kind-${kind}`} />
                  In the app
                </label>
              ) : (
                // Not shown, still kept as it was.
                <input type="hidden" name={`inApp:${kind}`} value={preference.inApp ? 'on' : ''} />
              )}
              {channels.includes('email') ? (
                <label className="flex items-center gap-2 text-sm text-zinc-700">
                  E-mail
                  <select
                    name={`email:${kind}`}
                    defaultValue={preference.email}
                    aria-describedby={`kind-${kind}`}
                    className="rounded-md border-0 bg-white px-2.5 py-1.5 text-sm text-zinc-900 shadow-xs ring-1 ring-zinc-300 ring-inset focus:ring-2 focus:ring-accent-600 focus-visible:outline-none"
                  >
                    {Object.entries(EMAIL_LABELS).map(([value, text]) => (
                      <option key={value} value={value}>
                        {text}
                      </option>
                    ))}
                  </select>
                </label>
              ) : (
                <input type="hidden" name={`email:${kind}`} value={preference.email} />
              )}
            </span>
          </li>
        ))}
      </ul>
      <div className="flex items-center gap-3">
        <SubmitButton pendingLabel="Saving…">Save notifications</SubmitButton>
        {saved ? (
          <p role="status" className="text-sm text-green-700">
            Saved.
          </p>
        ) : null}
      </div>
    </form>
  );
}
