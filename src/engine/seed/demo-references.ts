import type { EntityModel, FieldModel } from '../spec/model';
import { pickFrom, seededAt, type SeededRecords, type SeedRun } from './seed-run';
import type { Values } from './workflow-walk';
import { declaredField, referencedEntity } from '../ops/declared';

/*
 * How a demo record hangs together with the records it refers to: references that agree with
 * each other, a title that names what it belongs to, a creation time after theirs.
 */

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

/** Positions of the seeded records of an entity by the value of one of their fields ("id" too). */
function indexOf(run: SeedRun, entityName: string, field: string): ReadonlyMap<unknown, number[]> {
  const key = `${entityName}.${field}`;
  let index = run.indexes.get(key);
  if (!index) {
    index = new Map();
    const seeded = run.seeded.get(entityName);
    seeded?.facts.forEach((facts, i) => {
      const value = field === 'id' ? seeded.ids[i] : facts[field];
      const list = index!.get(value) ?? [];
      list.push(i);
      index!.set(value, list);
    });
    run.indexes.set(key, index);
  }
  return index;
}

/**
 * A record for a reference that agrees with the references chosen before it: a deal's contact
 * works at the deal's company (the contact refers to the same company), and the other way round
 * (the company is the one the contact refers to). Unconstrained when nothing ties them; empty
 * (or, when required, any record) when nothing agrees. Only records `free` accepts (a unique
 * reference: those no record names yet), null when there is none.
 */
export function pickReference(
  run: SeedRun,
  entity: EntityModel,
  field: FieldModel,
  targets: SeededRecords,
  record: Values,
  parents: Record<string, Values>,
  free?: (id: number) => boolean,
): number | null {
  if (free) {
    const picked = pickReference(run, entity, field, targets, record, parents);
    if (picked === null || free(seededAt(targets, picked).id)) return picked;
    // Taken (this order has a line for that product already): any of the free ones.
    const open = targets.ids.flatMap((id, i) => (free(id) ? [i] : []));
    return pickFrom(run.faker, open);
  }
  const target = referencedEntity(run.model, field);
  let candidates: readonly number[] | null = null;
  const narrow = (found: readonly number[]) => {
    candidates = candidates === null ? found : candidates.filter((i) => found.includes(i));
  };
  for (const [name, parent] of Object.entries(parents)) {
    const parentEntity = referencedEntity(run.model, declaredField(entity, name));
    for (const f of target.fields) {
      if (f.referenceTo === parentEntity.name && f.referenceTo !== target.name)
        narrow(indexOf(run, target.name, f.name).get(record[name]) ?? []);
    }
    for (const g of parentEntity.fields) {
      if (g.referenceTo === target.name && g.referenceTo !== parentEntity.name)
        narrow(indexOf(run, target.name, 'id').get(parent[g.name]) ?? []);
    }
  }
  const any = () => run.faker.number.int({ max: targets.ids.length - 1 });
  if (candidates === null) return any();
  return pickFrom(run.faker, candidates) ?? (field.required ? any() : null);
}

/** The title of the first record this one refers to by a required reference (a deal's company). */
export function aboutOf(run: SeedRun, entity: EntityModel, record: Values): string | undefined {
  for (const field of entity.fields) {
    if (field.type !== 'reference' || !field.required || record[field.name] === null) continue;
    const target = referencedEntity(run.model, field);
    const index = indexOf(run, target.name, 'id').get(record[field.name])?.[0];
    const seeded = run.seeded.get(target.name);
    const title = index === undefined || !target.titleField || !seeded ? undefined : seededAt(seeded, index).facts[target.titleField];
    if (typeof title === 'string') return title;
  }
  return undefined;
}

/**
 * When the record is created. A record that is part of another (a reference deleted with it: a
 * comment's ticket) is made while that one was active; any record comes after those it refers to.
 */
export function creationTime(run: SeedRun, entity: EntityModel, nominal: Date, parents: Record<string, Values>): Date {
  let at = nominal.getTime();
  const latest = run.now.getTime() - MINUTE_MS;
  for (const [name, parent] of Object.entries(parents)) {
    const from = (parent.createdAt as Date).getTime() + MINUTE_MS;
    const field = declaredField(entity, name);
    if (field.spec.type === 'reference' && field.spec.onDelete === 'cascade') {
      const until = Math.max((parent.updatedAt as Date).getTime(), from + 2 * HOUR_MS);
      at = run.faker.number.int({ min: Math.min(from, latest), max: Math.min(until, latest) });
    } else if (at < from) {
      at = Math.min(from + run.faker.number.int({ max: 24 * HOUR_MS }), latest);
    }
  }
  return new Date(at);
}
