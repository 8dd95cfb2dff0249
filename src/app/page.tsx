import Link from 'next/link';
import { getEngine } from '@/server/engine';
import { requireActor } from '@/server/session';

export default async function HomePage() {
  const actor = await requireActor('/');
  const { model, ops } = await getEngine();
  const entities = model.navigation.filter((entity) => ops.access(actor, entity.name).actions.list);
  return (
    <div>
      <h1 className="text-2xl font-semibold tracking-tight text-zinc-900">{model.title}</h1>
      {model.summary ? <p className="mt-2 max-w-3xl text-sm text-zinc-600">{model.summary}</p> : null}
      {entities.length > 0 ? (
        <ul className="mt-8 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {entities.map((entity) => (
            <li key={entity.name}>
              <Link
                href={`/${entity.plural}`}
                className="block h-full rounded-lg border border-zinc-200 bg-white p-5 shadow-xs transition-colors hover:border-accent-200 hover:bg-accent-50/40"
              >
                <span className="block text-sm font-semibold text-zinc-900">{entity.pluralLabel}</span>
                {entity.description ? <span className="mt-1 block text-sm text-zinc-600">{entity.description}</span> : null}
              </Link>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
