/**
 * `npx tsx bench/cpu-profile.ts [--top N] [--areas] <file.cpuprofile | folder>…`: where a run's CPU
 * goes, from V8 CPU profiles (`node --cpu-prof`, the command in docs/benchmarks.md). For each
 * profile: its sampled time (s), then self time summed per source file (the repository's files by
 * path, a package under node_modules by its name, V8's own entries such as `(garbage collector)`
 * and `(idle)` by theirs) and per function (`name file:line`), the largest first, each with its
 * share of the profile. `--areas` sums the repository's files by folder instead (helpers/audits,
 * helpers/live, simulator/src, …), the view docs/benchmarks.md gives.
 *
 * Self time is the time a sample found the function itself running, not its callees. Read shares,
 * not seconds: on a loaded machine a sample's interval stretches over whatever ran when the
 * process lost its core.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

/** The parts of a V8 `.cpuprofile` read here. */
interface Profile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
  samples: number[];
  timeDeltas: number[];
}

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The file a frame belongs to: a package name, a repository path, or V8's own entry name. */
function fileOf(url: string, fn: string, areas: boolean): string {
  if (!url) return `(${fn || 'native'})`;
  const path = url.replace(/^file:\/\//, '');
  const nm = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path);
  if (nm) return `pkg:${nm[1]}`;
  if (path.startsWith('node:')) return path;
  const rel = path.replace(/^\/work\/[^/]+\//, '').replace(root + '/', '');
  return areas
    ? rel
        .split('/')
        .slice(0, rel.startsWith('helpers/') || rel.startsWith('simulator/') ? 2 : 1)
        .join('/')
    : rel;
}

/** Self time in µs per file and per function of one profile, and its total. */
function selfTimes(p: Profile, areas: boolean): { total: number; files: Map<string, number>; fns: Map<string, number> } {
  const byId = new Map(p.nodes.map((n) => [n.id, n.callFrame]));
  const perNode = new Map<number, number>();
  p.samples.forEach((id, i) => perNode.set(id, (perNode.get(id) ?? 0) + (p.timeDeltas[i] ?? 0)));
  const files = new Map<string, number>();
  const fns = new Map<string, number>();
  let total = 0;
  for (const [id, us] of perNode) {
    const cf = byId.get(id)!;
    const file = fileOf(cf.url, cf.functionName, areas);
    const fn = `${cf.functionName || '(anonymous)'} ${fileOf(cf.url, cf.functionName, false)}:${cf.lineNumber + 1}`;
    files.set(file, (files.get(file) ?? 0) + us);
    fns.set(fn, (fns.get(fn) ?? 0) + us);
    total += us;
  }
  return { total, files, fns };
}

function lines(m: Map<string, number>, total: number, top: number): string[] {
  return [...m.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([k, us]) => `  ${(us / 1e6).toFixed(2).padStart(7)} s ${((100 * us) / total).toFixed(1).padStart(5)}%  ${k}`);
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { top: { type: 'string', default: '30' }, areas: { type: 'boolean', default: false } },
});
const top = Number(values.top) || 30;
const files = positionals.flatMap((p) =>
  statSync(p).isDirectory()
    ? readdirSync(p)
        .filter((f) => f.endsWith('.cpuprofile'))
        .map((f) => join(p, f))
    : [p],
);
for (const f of files) {
  const t = selfTimes(JSON.parse(readFileSync(f, 'utf8')) as Profile, values.areas === true);
  console.log(`== ${f}: ${(t.total / 1e6).toFixed(1)} s sampled`);
  console.log(lines(t.files, t.total, top).join('\n'));
  console.log('  -- functions');
  console.log(lines(t.fns, t.total, top).join('\n'));
}
