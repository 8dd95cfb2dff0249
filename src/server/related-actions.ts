import type { Engine } from '@/engine/engine';
import { notFound } from '@/engine/errors/ninefold-error';
import type { Actor } from '@/engine/ground/actor';
import type { RecordFormState } from '@/ui/forms/state';
import { REPLY_WITH_INPUT, sectionAnchor } from '@/ui/record/related-state';
import { entityNamed } from './entity-named';
import { readFormInput } from './forms';
import { writeWithFormFiles } from './form-files';
import { refusedForm, type Redirect } from './record-actions';
import { knownEntity } from '@/ui/known-names';

/**
 * Adds a record in place under the record shown (a reply under a ticket), without Next.js: the
 * server action (src/server/actions/related.ts) resolves the actor and the engine, calls this,
 * then redirects or hands the form back. The record shown and the section are bound by the page;
 * the reference is set from them, never from what the form posted, and ops checks it again
 * (readable, not final) with the rest. `saved` is where to go back to after saving.
 */
export async function submitRelated(
  engine: Engine,
  actor: Actor,
  parentName: string,
  parentId: number,
  sectionKey: string,
  state: RecordFormState,
  formData: FormData,
  /** The viewer's zone (src/server/viewer-zone.ts): posted date-times are wall times in it. */
  zone: string,
): Promise<RecordFormState | Redirect> {
  const parent = entityNamed(engine, parentName);
  const section = parent.details.related.find((s) => s.key === sectionKey);
  if (!section || !Number.isSafeInteger(parentId) || parentId < 1) throw notFound('page');
  const entity = knownEntity(engine.model, section.entity);
  const { input, values } = readFormInput(
    formData,
    entity.fields.filter((f) => f.name !== section.via),
    zone,
  );
  const chosen = formData.get(REPLY_WITH_INPUT);
  const replyWith = typeof chosen === 'string' && chosen !== '' ? chosen : undefined;
  try {
    await writeWithFormFiles(engine, actor, entity.fields, formData, input, (withFiles) =>
      engine.ops.create(
        actor,
        entity.name,
        { ...withFiles, [section.via]: String(parentId) },
        replyWith === undefined ? {} : { replyWith },
      ),
    );
    return { redirectTo: `/${parent.plural}/${parentId}#${sectionAnchor(section)}` };
  } catch (error) {
    // The reference is not a field of the form: its errors go in the message.
    const shown = engine.ops.access(actor, entity.name).writable.create.filter((name) => name !== section.via);
    return refusedForm(error, state, values, entity, new Set(shown));
  }
}
