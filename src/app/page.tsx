import { bindOps } from '@/engine/ops/ops';
import { getEngine } from '@/server/engine';
import { requireActor } from '@/server/session';
import { Home } from '@/ui/home/home';

export default async function HomePage() {
  const actor = await requireActor('/');
  const { model, ops } = await getEngine();
  return <Home model={model} ops={bindOps(ops, actor)} actor={actor} />;
}
