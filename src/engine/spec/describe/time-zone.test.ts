import { describe, expect, it } from 'vitest';
import helpdesk from '../../../../examples/helpdesk/ninefold.spec';
import { buildModel } from '../build';
import { describeMarkdown } from '../describe';

describe('the time zone in the spec document', () => {
  it('names the zone the spec declares', () => {
    const markdown = describeMarkdown(buildModel({ ...helpdesk, purpose: { ...helpdesk.purpose, timeZone: 'Europe/Paris' } }));
    expect(markdown).toContain('Times are shown in Europe/Paris unless a user chooses another zone');
  });

  it('says UTC when the spec names none', () => {
    expect(describeMarkdown(buildModel(helpdesk))).toContain('Times are shown in UTC unless a user chooses another zone');
  });
});
