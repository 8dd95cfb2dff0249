import { bindOps } from '@/engine/ops/ops';
import { getEngine } from '@/server/engine';
import { redirect } from 'next/navigation';
import { isVisitor } from '@/engine/access/visitor';
import { requireViewer, signInIfVisitor, visitorPlaces } from '@/server/viewer';
import { Home } from '@/ui/home/home';
import { viewerZone } from '@/server/viewer-zone';
import { needsGettingStarted } from '@/server/getting-started';

export default async function HomePage() {
  const actor = await requireViewer('/');
  const engine = await getEngine();
  if (isVisitor(actor)) {
    // The home page's widgets are for signed-in users; a visitor starts at the first thing the public may open.
    const first = (await visitorPlaces(engine, actor))[0];
    if (first) redirect(first.href);
    signInIfVisitor(actor, '/');
  }
  const { model, ops } = engine;
  const bound = bindOps(ops, actor);
  return (
    <Home
      model={model}
      ops={bound}
      actor={actor}
      zone={await viewerZone()}
      gettingStarted={await needsGettingStarted(model, bound, actor)}
    />
  );
}
