import { execFileSync } from 'node:child_process';
import os from 'node:os';

export function machineInfo(root: string): Record<string, unknown> {
  const git = (args: string[]) => {
    try {
      return execFileSync('git', args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    } catch {
      return null;
    }
  };
  const cpus = os.cpus();
  return {
    cpus: cpus.length,
    cpuModel: cpus[0]?.model ?? null,
    memoryMb: Math.round(os.totalmem() / 1024 / 1024),
    node: process.version,
    platform: `${os.platform()} ${os.release()} ${os.arch()}`,
    loadAverageAtStart: os.loadavg(),
    // Changed files besides the harness's own output, so a result can be told from a clean checkout's.
    git: {
      commit: git(['rev-parse', 'HEAD']),
      dirtyFiles: git(['status', '--porcelain', '--', '.', ':!bench/results'])?.split('\n').filter(Boolean).length ?? null,
    },
  };
}
