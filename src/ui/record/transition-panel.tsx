import type { EntityModel } from '@/engine/spec/model';
import { buttonClass } from '../button';
import { Card } from '../card';
import type { FormFieldDescriptor } from '../forms/state';
import { StateBadge } from '../state-badge';
import { TransitionForm } from './transition-form';
import type { OfferPlan } from './transition-plan';
import { finalTransitionQuestion } from './transition-question';
import type { TransitionFormState } from './transition-state';

export interface TransitionItem {
  readonly plan: OfferPlan;
  /** The server action taking this transition on this record. */
  readonly action: (state: TransitionFormState, formData: FormData) => Promise<TransitionFormState>;
  /** Inputs for the fields the plan asks for. */
  readonly fields: readonly FormFieldDescriptor[];
}

/**
 * The record's state and what this user can do with it now: a button per transition (with a
 * small form when it needs input), and the ones blocked now, disabled, with why. Those into a
 * final state ask for confirmation first.
 */
export function TransitionPanel({
  entity,
  recordId,
  state,
  version,
  items,
}: {
  /** An entity with a workflow. */
  entity: EntityModel;
  recordId: number;
  state: unknown;
  version: number;
  items: readonly TransitionItem[];
}) {
  const workflow = entity.workflow!;
  const stateModel = workflow.states.find((s) => s.name === state);
  const firstTakeable = items.find((item) => item.plan.mode !== 'blocked')?.plan.offer.name;
  return (
    <Card className="p-5">
      <section aria-labelledby="transitions-heading">
        <div className="flex items-center justify-between gap-4">
          <h2 id="transitions-heading" className="text-sm font-semibold text-zinc-900">
            Workflow
          </h2>
          <StateBadge workflow={workflow} state={state} />
        </div>
        {stateModel?.description ? <p className="mt-1 text-xs text-zinc-500">{stateModel.description}</p> : null}
        {items.length === 0 ? (
          // A state that says what happens next needs no "nothing to do" beside it.
          stateModel?.final ? (
            <p className="mt-3 text-sm text-zinc-500">This is a final state.</p>
          ) : stateModel?.description ? null : (
            <p className="mt-3 text-sm text-zinc-500">Nothing for you to do here now.</p>
          )
        ) : (
          <ul className="mt-4 space-y-3" aria-label="Transitions">
            {items.map(({ plan, action, fields }) => {
              const { offer } = plan;
              if (plan.mode === 'blocked') {
                const reasonId = `transition-${offer.name}-blocked`;
                return (
                  <li key={offer.name}>
                    <button type="button" disabled aria-describedby={reasonId} className={buttonClass('secondary', 'w-full opacity-60')}>
                      {offer.label}
                    </button>
                    <p id={reasonId} className="mt-1 text-xs text-zinc-500">
                      {offer.blockedReason}
                    </p>
                  </li>
                );
              }
              return (
                // Keyed by the version: after the record changes, the form starts afresh.
                <li key={`${offer.name}-${version}`}>
                  <TransitionForm
                    action={action}
                    name={offer.name}
                    label={offer.label}
                    version={version}
                    variant={offer.name === firstTakeable ? 'primary' : 'secondary'}
                    fields={fields}
                    comment={offer.comment}
                    hint={plan.mode === 'input' ? offer.blockedReason : undefined}
                    question={finalTransitionQuestion(entity, offer.name, recordId)}
                    cancelHref={`/${entity.plural}/${recordId}`}
                  />
                </li>
              );
            })}
          </ul>
        )}
      </section>
    </Card>
  );
}
