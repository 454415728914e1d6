/**
 * `npm run bench:test [-- --fresh] [--command test|test:quick] [--runs N] [--ratio]`: wall time and CPU
 * time of `npm test` (or `npm run test:quick`), the commands a contributor runs before a commit.
 *
 * - `--fresh`: as a new user would, in a fresh clone of this checkout's HEAD (`git clone`, then
 *   `npm ci`, timed apart), with nothing else changed; without it, in this checkout.
 * - `--runs N`: N timed runs; prints each and the median.
 * - `--ratio`: also `npm run bench` (the embedded full run, median of 3) just before and just after,
 *   and the ratio of the command's median wall time to the mean of those two (issue 33 asks at most
 *   12 for `npm test` in a fresh clone). This machine's speed drifts within minutes (the embedded run
 *   measured 13.8 s and 21.3 s half an hour apart), so one bench on one side of the command can move
 *   the ratio by a third; the two sides bracket it.
 *
 * Prints, per run: wall seconds, CPU seconds of the command and every process it waited for (user +
 * system, from /proc/self/stat on Linux: on a shared machine the CPU figure moves less than the wall
 * figure), the exit code and the command's closing lines. Speed is measured here, never by a timed
 * test. Figures measured on the project machine: docs/benchmarks.md, "Current figures" (summed up in the README).
 */
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, stripVTControlCharacters } from 'node:util';
import { median } from 'simple-statistics';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({
  options: {
    fresh: { type: 'boolean', default: false },
    command: { type: 'string', default: 'test' },
    runs: { type: 'string', default: '1' },
    ratio: { type: 'boolean', default: false },
  },
});
const runs = Math.max(1, Number(values.runs) || 1);
const npmArgs = values.command === 'test' ? ['test'] : ['run', String(values.command)];

/** CPU seconds (user + system) of the processes this process has waited for (Linux; 0 elsewhere). */
function childrenCpuS(): number {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
    // After "pid (comm) ": field 14 and 15 of the rest are cutime and cstime, in clock ticks.
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return 0;
  }
}

/** Runs a command to its end; wall and CPU seconds, exit code, the output's last lines. */
function timed(cmd: string, args: string[], cwd: string): Promise<{ wallS: number; cpuS: number; code: number; tail: string }> {
  const cpu0 = childrenCpuS();
  const t0 = performance.now();
  return new Promise((done) => {
    const child = spawn(cmd, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, FORCE_COLOR: '0' } });
    let out = '';
    child.stdout.on('data', (d) => (out = (out + d).slice(-2_000_000)));
    child.stderr.on('data', (d) => (out = (out + d).slice(-2_000_000)));
    child.on('close', (code) => {
      // Without colour codes, which the reporter may print anyway.
      const all = stripVTControlCharacters(out).trimEnd().split('\n');
      // The closing lines, and the tests that failed (so a red run says which without a rerun).
      const failing = all.filter((l) => /^\s*(×|✗|FAIL)\s/.test(l)).slice(0, 10);
      const lines = [...failing, ...all.filter((l) => /passed|failed|Duration/.test(l)).slice(-4)];
      done({ wallS: (performance.now() - t0) / 1000, cpuS: childrenCpuS() - cpu0, code: code ?? 1, tail: lines.join('\n    ') });
    });
  });
}

/**
 * `npm run bench` in this checkout (the embedded full run, median of 3): its median wall seconds.
 * @throws Error when the bench prints no median line (a failed run).
 */
async function benchRunS(): Promise<number> {
  const out = execFileSync('npm', ['run', '-s', 'bench', '--', '--runs', '3'], { cwd: root, encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
  const m = /bench: conformance run embedded ([\d.]+) s wall \(median of 3\)/.exec(stripVTControlCharacters(out));
  if (!m) throw new Error(`npm run bench printed no median:\n${out.slice(-1000)}`);
  console.log(`npm run bench: ${m[1]} s wall (median of 3)`);
  return Number(m[1]);
}

const before = values.ratio ? await benchRunS() : undefined;
let cwd = root;
let cloneDir: string | undefined;
if (values.fresh) {
  cloneDir = mkdtempSync(join(tmpdir(), 'bench-npm-test-'));
  cwd = join(cloneDir, 'clone');
  execFileSync('git', ['clone', '--quiet', root, cwd]);
  const ci = await timed('npm', ['ci', '--no-audit', '--no-fund'], cwd);
  console.log(`npm ci (fresh clone): ${ci.wallS.toFixed(1)} s wall, exit ${ci.code}`);
}
console.log(
  `npm ${npmArgs.join(' ')}: ${runs} run(s) in ${values.fresh ? 'a fresh clone' : 'this checkout'}, ${availableParallelism()} cores, Node ${process.version}`,
);
const walls: number[] = [];
for (let i = 1; i <= runs; i++) {
  const r = await timed('npm', npmArgs, cwd);
  walls.push(r.wallS);
  console.log(`  run ${i}: ${r.wallS.toFixed(1)} s wall, ${r.cpuS.toFixed(1)} s CPU, exit ${r.code}\n    ${r.tail}`);
}
console.log(`npm ${npmArgs.join(' ')}: ${median(walls).toFixed(1)} s wall (median of ${runs})`);
if (cloneDir) rmSync(cloneDir, { recursive: true, force: true });
if (before !== undefined) {
  const after = await benchRunS();
  const mean = (before + after) / 2;
  console.log(
    `ratio: npm ${npmArgs.join(' ')} ${median(walls).toFixed(1)} s / npm run bench ${mean.toFixed(1)} s (mean of ${before.toFixed(1)} before and ${after.toFixed(1)} after) = ${(median(walls) / mean).toFixed(1)}×`,
  );
}
