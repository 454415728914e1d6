/**
 * helpers/ and simulator/src/ have no import cycle: each module sits on a floor, and calls go down.
 * In helpers/, the HTTP client does not call up into the checks (it publishes answers that the
 * envelope audit subscribes to). In the simulator, seam.ts and config.ts are the floor; a route or
 * a seam module never imports the fault catalogue (faults/), whose area files import the seams
 * they override. Imports are read with the TypeScript compiler's own pre-processor
 * (`ts.preProcessFile`), type imports included, since a type-only cycle still ties two modules'
 * designs together.
 */
import { describe, expect, it } from 'vitest';
import ts from 'typescript';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { tsFilesUnder } from '../support/source-files';

const root = resolve(__dirname, '..', '..');
const helpers = join(root, 'helpers');
const simulator = join(root, 'simulator', 'src');

const walk = tsFilesUnder;

/**
 * Module → the modules under `dir` it imports (relative specifiers resolved as TypeScript would),
 * leaving out the files of `skip`.
 */
function importGraph(dir: string): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of walk(dir)) {
    const deps: string[] = [];
    for (const { fileName } of ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles) {
      if (!fileName.startsWith('.')) continue;
      const base = resolve(dirname(file), fileName);
      const hit = [base, `${base}.ts`, base.replace(/\.js$/, '.ts'), join(base, 'index.ts')].find((c) => existsSync(c) && statSync(c).isFile());
      if (hit && hit.startsWith(dir)) deps.push(hit);
    }
    graph.set(file, deps);
  }
  return graph;
}

/** Every cycle found by a depth-first walk, each as "a.ts -> b.ts -> a.ts" (paths relative to `dir`). */
function cycles(graph: Map<string, string[]>, dir = '/'): string[] {
  const found: string[] = [];
  const done = new Set<string>();
  const path: string[] = [];
  const visit = (n: string) => {
    path.push(n);
    for (const m of graph.get(n) ?? []) {
      const at = path.indexOf(m);
      if (at >= 0) found.push([...path.slice(at), m].map((f) => relative(dir, f)).join(' -> '));
      else if (!done.has(m)) visit(m);
    }
    path.pop();
    done.add(n);
  };
  for (const n of graph.keys()) if (!done.has(n)) visit(n);
  return found;
}

describe('import graphs', () => {
  it('finds a cycle when there is one (the detector works)', () => {
    const a = '/x/a.ts';
    const b = '/x/b.ts';
    expect(
      cycles(
        new Map([
          [a, [b]],
          [b, [a]],
        ]),
      ).length,
    ).toBe(1);
    expect(
      cycles(
        new Map([
          [a, [b]],
          [b, []],
        ]),
      ),
    ).toEqual([]);
  });

  it('helpers/ has no import cycle', () => {
    const graph = importGraph(helpers);
    expect(graph.size).toBeGreaterThan(20);
    expect(cycles(graph, helpers)).toEqual([]);
  });

  it('simulator/src/ has no import cycle', () => {
    const graph = importGraph(simulator);
    expect(graph.size).toBeGreaterThan(20);
    expect(cycles(graph, simulator)).toEqual([]);
  });
});
