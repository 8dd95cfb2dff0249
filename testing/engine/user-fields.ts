import { defineApp } from '@/engine/spec/define';

/** Teams and their managers: every kind of user field, and one entity for references. */
export const teamsSpec = defineApp({
  name: 'teams',
  entities: {
    team: { titleField: 'name', fields: { name: { type: 'text', required: true } } },
  },
  roles: { manager: { label: 'Manager' }, member: { label: 'Member' } },
  users: {
    fields: {
      team: { type: 'reference', to: 'team', help: 'Where they work.' },
      boss: { type: 'user', roles: ['manager'] },
      level: { type: 'enum', values: ['junior', 'senior'], default: 'junior', required: true },
      desk: { type: 'integer', min: 1, max: 500 },
      remote: { type: 'boolean' },
    },
  },
  permissions: { team: { admin: { list: true, read: true, create: true, update: true, delete: true } } },
});
