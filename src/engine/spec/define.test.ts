import { describe, expect, expectTypeOf, it } from 'vitest';
import helpdesk from '../../../examples/helpdesk/ninefold.spec';
import { constant, defineApp, type RecordOf } from './define';

type Ticket = RecordOf<typeof helpdesk, 'ticket'>;
type Organization = RecordOf<typeof helpdesk, 'organization'>;

describe('record types inferred from the spec (checked by `tsc`)', () => {
  it('types each field from its declaration', () => {
    expectTypeOf<Ticket['priority']>().toEqualTypeOf<'low' | 'normal' | 'high' | 'urgent'>();
    expectTypeOf<Ticket['subject']>().toEqualTypeOf<string>();
    expectTypeOf<Ticket['assignee']>().toEqualTypeOf<number | null>();
    expectTypeOf<Ticket['dueAt']>().toEqualTypeOf<Date | null>();
    expectTypeOf<Ticket['state']>().toEqualTypeOf<'new' | 'open' | 'pending' | 'resolved' | 'closed'>();
    expectTypeOf<Ticket['version']>().toEqualTypeOf<number>();
    expectTypeOf<Organization['tier']>().toEqualTypeOf<'standard' | 'premium'>();
    // @ts-expect-error -- organizations have no workflow, so no state
    expectTypeOf<Organization['state']>().toBeNever();
  });

  it('defineApp returns the spec unchanged and constant() makes a reference', () => {
    const spec = defineApp({ name: 'x' });
    expect(spec).toEqual({ name: 'x' });
    expect(constant('limit')).toEqual({ $constant: 'limit' });
  });
});
