import { buttonClass } from '../button';
import { CONFIRM_INPUT, CONFIRM_VALUE, type ConfirmQuestion } from './confirm-input';

/**
 * The question the server asks back when a destructive form came without its confirmation (a
 * browser without JavaScript): rendered inside the same form, whose hidden fields it posts again
 * with the confirmation. Cancel reloads the page, which forgets the question.
 */
export function ConfirmPanel({ question, cancelHref }: { question: ConfirmQuestion; cancelHref: string }) {
  return (
    <div role="alert" className="max-w-sm space-y-2 rounded-md bg-red-50 p-3 text-left whitespace-normal ring-1 ring-red-200">
      <p className="text-sm font-semibold text-red-800">{question.title}</p>
      <p className="text-sm text-red-800">{question.description}</p>
      <div className="flex flex-wrap gap-2 pt-1">
        <button type="submit" name={CONFIRM_INPUT} value={CONFIRM_VALUE} className={buttonClass('danger')}>
          {question.confirmLabel}
        </button>
        <a href={cancelHref} className={buttonClass('secondary')}>
          Cancel
        </a>
      </div>
    </div>
  );
}
