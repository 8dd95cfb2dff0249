import fs from 'node:fs';
import path from 'node:path';

/** The file in the data directory that says which process has the embedded database open. */
export const LOCK_FILE = 'ninefold.lock';

/** Thrown when another live process holds the data directory: two PGlites on one directory corrupt it. */
export class DataDirInUse extends Error {
  readonly dataDir: string;
  readonly pid: number;

  constructor(dataDir: string, pid: number) {
    super(`The data directory ${dataDir} is in use by another Ninefold process (pid ${pid}). Stop it first, or use another DATA_DIR.`);
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

/** Who holds the lock: the pid (first line) and, on Linux, when that process started (second line). */
interface Holder {
  readonly pid: number;
  readonly startTime: string | null;
}

function readHolder(file: string): Holder | null {
  const [first = '', second] = fs.readFileSync(file, 'utf8').split('\n');
  const pid = Number(first.trim());
  if (!Number.isInteger(pid) || pid <= 0) return null;
  return { pid, startTime: second?.trim() || null };
}

function readPid(file: string): number | null {
  return readHolder(file)?.pid ?? null;
}

/**
 * A process's state letter and start time (clock ticks since boot) from /proc/<pid>/stat; null
 * where there is no /proc (not Linux) or no such process. The command name, second field, is in
 * parentheses and may hold spaces and parentheses itself, so fields are counted from the last ')'.
 */
export function processStat(pid: number): { readonly state: string; readonly startTime: string } | null {
  let text: string;
  try {
    text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  // fields[0] is field 3 (state); starttime is field 22.
  const [state] = fields;
  const startTime = fields[19];
  return state !== undefined && startTime !== undefined ? { state, startTime } : null;
}

/** What this process writes in the lock file: its pid, and its start time where it can be read. */
function holderText(): string {
  const startTime = processStat(process.pid)?.startTime;
  return startTime ? `${process.pid}\n${startTime}\n` : `${process.pid}\n`;
}

/**
 * Whether the lock's holder still runs. kill(pid, 0) alone is not enough: it succeeds on a zombie
 * (a process killed with -9 whose parent has not reaped it yet, which is the moment a supervisor
 * restarts the server), and on an unrelated process that got the same pid later. So on Linux a
 * zombie ('Z') or dead ('X') state is dead, and so is a process that started at another time than
 * the lock says.
 */
function isAlive(holder: Holder): boolean {
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const stat = processStat(holder.pid);
  if (stat === null) return true;
  if (stat.state === 'Z' || stat.state === 'X') return false;
  return holder.startTime === null || holder.startTime === stat.startTime;
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
        fs.writeSync(fd, holderText());
      } finally {
        fs.closeSync(fd);
      }
      return holding(file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }

    const holder = readHolderOrNull(file);
    if (holder !== null && holder.pid !== process.pid && isAlive(holder)) throw new DataDirInUse(dir, holder.pid);
    takeOverStaleLock(dir, file, holder?.pid ?? null);
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

function readHolderOrNull(file: string): Holder | null {
  try {
    return readHolder(file);
  } catch {
    return null;
  }
}

function readPidOrNull(file: string): number | null {
  return readHolderOrNull(file)?.pid ?? null;
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
  const moved = readHolderOrNull(aside);
  if (moved !== null && moved.pid !== stalePid && moved.pid !== process.pid && isAlive(moved)) {
    // Another process took over between our read and our rename: give its lock back.
    fs.renameSync(aside, file);
    throw new DataDirInUse(dir, moved.pid);
  }
  fs.rmSync(aside, { force: true });
}
