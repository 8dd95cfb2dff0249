import { describe, expect, it } from 'vitest';
import { buildModel } from '@/engine/spec/build';
import type { AppSpec } from '@/engine/spec/types';
import { buildOpenApiDocument } from './document';

const model = buildModel({
  name: 'field-service',
  entities: {
    technician: { fields: { name: { type: 'text', required: true } } },
    visit: {
      fields: {
        title: { type: 'text', required: true },
        technician: { type: 'reference', to: 'technician', required: true },
        startsAt: { type: 'datetime', required: true },
        endsAt: { type: 'datetime' },
      },
      exclusive: { range: ['startsAt', 'endsAt'], per: 'technician' },
    },
    room: {
      fields: { name: { type: 'text', required: true }, fromDay: { type: 'date' }, untilDay: { type: 'date' } },
      exclusive: { range: ['fromDay', 'untilDay'], error: 'ROOM_TAKEN' },
    },
  },
  roles: { agent: { label: 'Agent' } },
  permissions: {
    technician: { agent: { list: true, read: true, create: true } },
    visit: { agent: { list: true, read: true, create: true, update: true } },
    room: { agent: { list: true, read: true, create: true, update: true } },
  },
  errors: { ROOM_TAKEN: { status: 409, title: 'Room taken', message: 'The room is taken then.' } },
} as AppSpec);

describe('OpenAPI: exclusive rules in the refusals of writes', () => {
  const document = buildOpenApiDocument(model);

  it('says the rule in the 422 of create and update', () => {
    const note =
      'VALIDATION_FAILED also when the write would make ranges overlap: A technician\'s visits never overlap (Starts at to Ends at) (on `startsAt`: "This technician already has a visit at that time.").';
    for (const operation of [document.paths['/visits']!.post!, document.paths['/visits/{id}']!.patch!]) {
      expect(operation.responses['422']!.description).toContain(note);
    }
    expect(document.paths['/technicians']!.post!.responses['422']!.description).not.toContain('overlap');
  });

  it("lists a rule's own code under its status", () => {
    const conflict = document.paths['/rooms']!.post!.responses['409']!;
    expect(conflict['x-error-codes']).toContain('ROOM_TAKEN');
    expect(conflict.description).toContain(
      'ROOM_TAKEN also when the write would make ranges overlap: Rooms never overlap (From day to Until day)',
    );
  });
});
