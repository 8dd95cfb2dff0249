import { describe, expect, it } from 'vitest';
import { teamsSpec } from '@testing/engine/user-fields';
import { buildModel } from '../build';
import { describeMarkdown } from '../describe';

describe('the spec document: user fields under point 6', () => {
  it('lists each user field with its type, what it refers to, its default and help', () => {
    const markdown = describeMarkdown(buildModel(teamsSpec));
    const point6 = markdown.slice(markdown.indexOf('## 6. Roles and permissions'), markdown.indexOf('## 7.'));
    expect(point6).toContain('### Users');
    expect(point6).toContain("conditions read the signed-in user's as `{ actor: 'team' }`");
    expect(point6).toContain('| `team` | reference → Team | no |  | emptied when the team is deleted; Where they work. |');
    expect(point6).toContain('| `boss` | user | no |  | emptied when the user is deleted; held only by users with the role manager |');
    expect(point6).toContain('| `level` | enum: junior, senior | yes | junior |  |');
    expect(point6).toContain('| `desk` | integer | no |  | min 1; max 500 |');
  });

  it('says nothing of users when the spec has no user fields', () => {
    expect(describeMarkdown(buildModel({ ...teamsSpec, users: undefined }))).not.toContain('### Users');
  });
});
