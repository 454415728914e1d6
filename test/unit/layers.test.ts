/**
 * helpers/ is in layers, in the manner of Playwright's `DEPS.list`: every file sits in a folder
 * named for its layer, the layers are listed lowest first in helpers/layers.json, and a folder
 * imports only from itself and the layers below it. Nothing in helpers/ imports the project's own
 * tools (tools/), the suites, the tests or the scripts; only the layers named in `outside` reach
 * beyond helpers/ (the run's entry starts the embedded simulator). Imports are read with the
 * TypeScript compiler's own pre-processor, type imports and dynamic imports included.
 */
import { describe, expect, it } from 'vitest';
import ts from 'typescript';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { tsFilesUnder } from '../support/source-files';

const root = resolve(__dirname, '..', '..');
const helpers = join(root, 'helpers');

interface Layers {
  layers: { folder: string; holds: string }[];
  outside: Record<string, string[]>;
}
const LAYERS: Layers = JSON.parse(readFileSync(join(helpers, 'layers.json'), 'utf8'));
const ORDER = LAYERS.layers.map((l) => l.folder);

const walk = tsFilesUnder;

/** The relative imports of one file, resolved to paths relative to the repository's root. */
function importsOf(file: string, text = readFileSync(file, 'utf8')): string[] {
  const out: string[] = [];
  for (const { fileName } of ts.preProcessFile(text, true, true).importedFiles) {
    if (!fileName.startsWith('.')) continue;
    out.push(
      relative(root, resolve(dirname(file), fileName))
        .split(sep)
        .join('/'),
    );
  }
  return out;
}

/**
 * The offences of one file of helpers/ (given relative to the root): an import of a higher layer,
 * or of anything outside helpers/ that its layer's `outside` list does not name.
 */
function offences(file: string, imports: string[], layers: string[] = ORDER, outside = LAYERS.outside): string[] {
  const layer = file.split('/')[1];
  const own = layers.indexOf(layer);
  const found: string[] = [];
  for (const target of imports) {
    if (!target.startsWith('helpers/')) {
      if (!(outside[layer] ?? []).some((prefix) => target.startsWith(prefix))) found.push(`${file} imports ${target}, outside helpers/`);
      continue;
    }
    const theirs = layers.indexOf(target.split('/')[1]);
    if (theirs > own) found.push(`${file} (layer ${layer}) imports ${target} (layer ${layers[theirs]}, higher)`);
  }
  return found;
}

describe('helpers/ layers', () => {
  it('every file of helpers/ sits in a listed layer folder; every folder is listed', () => {
    const loose = readdirSync(helpers).filter((n) => statSync(join(helpers, n)).isFile() && n.endsWith('.ts'));
    expect(loose, 'loose .ts files in helpers/').toEqual([]);
    const folders = readdirSync(helpers).filter((n) => statSync(join(helpers, n)).isDirectory());
    expect(folders.filter((f) => !ORDER.includes(f)).sort(), 'folders missing from helpers/layers.json').toEqual([]);
    expect(
      ORDER.filter((f) => !existsSync(join(helpers, f))),
      'layers with no folder',
    ).toEqual([]);
  });

  it('a folder imports only from itself and the layers below it', () => {
    const found = walk(helpers).flatMap((file) => {
      const rel = relative(root, file).split(sep).join('/');
      return offences(rel, importsOf(file));
    });
    expect(found).toEqual([]);
  });

  it('the check can fail: an upward import and an import outside helpers/ are named', () => {
    expect(offences('helpers/http/client.ts', ['helpers/base/redact', 'helpers/audits/replay'])).toEqual([
      'helpers/http/client.ts (layer http) imports helpers/audits/replay (layer audits, higher)',
    ]);
    expect(offences('helpers/checks/engine.ts', ['tools/causes'])).toEqual(['helpers/checks/engine.ts imports tools/causes, outside helpers/']);
    expect(offences('helpers/run/global-setup.ts', ['simulator/src/server'])).toEqual([]);
    const file = join(helpers, 'base', 'synthetic.ts');
    expect(importsOf(file, "import type { X } from '../checks/engine';\nconst m = await import('../world/world');")).toEqual([
      'helpers/checks/engine',
      'helpers/world/world',
    ]);
  });
});
