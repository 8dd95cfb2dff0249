// Preloaded into the server (NODE_OPTIONS=--import) when the harness profiles: the first
// SIGUSR2 starts the V8 CPU profiler, the next one writes a .cpuprofile (the same format as
// `node --cpu-prof`) into NF_BENCH_CPU_PROFILE_DIR. `--cpu-prof` itself writes only on a normal
// exit, and the server ends by a signal, so the harness asks for the profile this way.
import fs from 'node:fs';
import inspector from 'node:inspector';
import path from 'node:path';

const dir = process.env.NF_BENCH_CPU_PROFILE_DIR;
if (dir) {
  const session = new inspector.Session();
  session.connect();
  let profiling = false;
  let count = 0;
  session.post('Profiler.enable', () => session.post('Profiler.setSamplingInterval', { interval: 200 }));
  process.on('SIGUSR2', () => {
    if (!profiling) {
      profiling = true;
      session.post('Profiler.start');
      return;
    }
    profiling = false;
    session.post('Profiler.stop', (error, result) => {
      if (error) return;
      count += 1;
      const file = path.join(dir, `server-${process.pid}-${count}.cpuprofile`);
      fs.writeFileSync(`${file}.partial`, JSON.stringify(result.profile));
      fs.renameSync(`${file}.partial`, file);
    });
  });
}
