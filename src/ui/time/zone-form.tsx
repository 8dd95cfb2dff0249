import { inputClass } from '../forms/field-input';
import { SubmitButton } from '../forms/submit-button';

/**
 * The zone the user reads and types times in: automatic (as the browser says) or one of the
 * zones Intl knows. A plain form posting to a server action, so it works without JavaScript.
 */
export function ZoneForm({
  chosen,
  zones,
  current,
  action,
}: {
  /** 'auto' or the chosen zone. */
  chosen: string;
  zones: readonly string[];
  /** The zone times are shown in now, named beside "Automatic" so the user sees what it means. */
  current: string;
  action: (formData: FormData) => Promise<void>;
}) {
  return (
    <form action={action} className="flex flex-wrap items-end gap-3">
      <div className="min-w-64 flex-1">
        <label htmlFor="time-zone" className="block text-sm font-medium text-zinc-700">
          Time zone
        </label>
        <select id="time-zone" name="timeZone" defaultValue={chosen} className={inputClass}>
          <option value="auto">Automatic (from this browser){chosen === 'auto' ? `: ${current}` : ''}</option>
          {zones.map((zone) => (
            <option key={zone} value={zone}>
              {zone.replaceAll('_', ' ')}
            </option>
          ))}
        </select>
      </div>
      <SubmitButton variant="secondary" pendingLabel="Saving…">
        Save time zone
      </SubmitButton>
    </form>
  );
}
