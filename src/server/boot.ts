import { registerApiDoor } from './api-door';
import { getEngine } from './engine';
import { processLiveHub } from './live/process-hub';

/**
 * Opens the engine when the server starts rather than on the first request: a wrong spec, a
 * refused schema change or a data directory in use stops the start with its message, and the
 * first visitor does not wait for the database to open.
 */
export async function bootEngine(): Promise<void> {
  try {
    const engine = await getEngine();
    registerApiDoor(engine);
    // Automatic transitions: every server takes its share of what falls due (engine/scheduler).
    engine.scheduler.start();
    // Listening from the start: a tab whose stream opens a moment after its page was rendered
    // is sent what changed in between (LiveHub.connect's `since`). A failure is retried by the first stream.
    processLiveHub().catch((error: unknown) => console.error('[ninefold] live changes:', error instanceof Error ? error.message : error));
    process.stderr.write(
      `${JSON.stringify({ level: 'info', msg: 'engine ready', spec: engine.model.name, database: engine.databaseKind })}\n`,
    );
  } catch (error) {
    // An unreachable database says which connection failed (its cause), not only the catalogue's words.
    const cause =
      error instanceof Error && error.cause instanceof Error
        ? ` (${error.cause.message || String((error.cause as { code?: unknown }).code ?? error.cause.name)})`
        : '';
    process.stderr.write(`Ninefold could not start:\n${error instanceof Error ? error.message : String(error)}${cause}\n`);
    process.exit(1);
  }
}
