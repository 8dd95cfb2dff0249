import fs from 'node:fs';
import path from 'node:path';

/** The file in the data directory that says which process has the embedded database open. */
export const LOCK_FILE = 'ninefold.lock';

/** Thrown when another live process holds the data directory: two PGlites on one directory corrupt it. */
export class DataDirInUse extends Error {
  readonly dataDir: string;
  readonly pid: number;

  constructor(dataDir: string, pid: number) {
    super(
      `The data directory ${dataDir} is in use by another Ninefold process (pid ${pid}). Stop it first, or use another DATA_DIR.`,
    );
    this.name = 'DataDirInUse';
    this.dataDir = dataDir;
    this.pid = pid;
  }
}

export interface DataDirLock {
  readonly file: string;
  release(): void;
}

/** Lock files this process holds, removed on 'exit' if the server glue never got to close(). */
const held = new Set<string>();
let exitHandlerInstalled = false;

function installExitHandler(): void {
  if (exitHandlerInstalled) return;
  exitHandlerInstalled = true;
  process.on('exit', () => {
    for (const file of held) removeIfOurs(file);
  });
}

function removeIfOurs(file: string): void {
  try {
    if (readPid(file) === process.pid) fs.unlinkSync(file);
  } catch {
    // Already gone, or not readable: nothing of ours to remove.
  }
}

function readPid(file: string): number | null {
  const text = fs.readFileSync(file, 'utf8').trim();
  const pid = Number(text);
  return Number.isInteger(pid) && pid > 0 ? pid : null;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Takes the data directory for this process, creating it if needed. A lock left by a process
 * that is gone (killed, crashed) is taken over. A lock naming this very process but not held by
 * it is stale too: in a container the restarted server often gets the same pid as the old one.
 */
export function lockDataDir(dataDir: string): DataDirLock {
  const dir = path.resolve(dataDir);
  const file = path.join(dir, LOCK_FILE);
  if (held.has(file)) throw new DataDirInUse(dir, process.pid);
  fs.mkdirSync(dir, { recursive: true });

  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      const fd = fs.openSync(file, 'wx');
      try {
        fs.writeSync(fd, `${process.pid}\n`);
      } finally {
        fs.closeSync(fd);
      }
      return holding(file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }

    const pid = readPidOrNull(file);
    if (pid !== null && pid !== process.pid && isAlive(pid)) throw new DataDirInUse(dir, pid);
    takeOverStaleLock(dir, file, pid);
  }
  throw new Error(`Could not lock the data directory ${dir}: its lock file ${LOCK_FILE} keeps changing.`);
}

/**
 * Takes over, without a gap, the lock that ./pglite/prestart.mjs wrote for this process before
 * the engine loaded (the same file, naming this pid). Null when the file does not name this
 * process: the caller then stops the prestarted database and locks as usual.
 */
export function adoptDataDirLock(dataDir: string): DataDirLock | null {
  const file = path.join(path.resolve(dataDir), LOCK_FILE);
  if (held.has(file) || readPidOrNull(file) !== process.pid) return null;
  return holding(file);
}

/** The lock file, written for this process, as held until released or the process exits. */
function holding(file: string): DataDirLock {
  held.add(file);
  installExitHandler();
  return {
    file,
    release() {
      if (!held.delete(file)) return;
      removeIfOurs(file);
    },
  };
}

function readPidOrNull(file: string): number | null {
  try {
    return readPid(file);
  } catch {
    return null;
  }
}

/**
 * Moves the stale lock aside atomically before deleting it, so that of two processes taking
 * over at once, one cannot delete the fresh lock the other has just written.
 */
function takeOverStaleLock(dir: string, file: string, stalePid: number | null): void {
  const aside = `${file}.${process.pid}.${Date.now()}.stale`;
  try {
    fs.renameSync(file, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  const moved = readPidOrNull(aside);
  if (moved !== stalePid && moved !== null && moved !== process.pid && isAlive(moved)) {
    // Another process took over between our read and our rename: give its lock back.
    fs.renameSync(aside, file);
    throw new DataDirInUse(dir, moved);
  }
  fs.rmSync(aside, { force: true });
}
