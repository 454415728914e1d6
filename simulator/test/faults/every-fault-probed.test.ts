/**
 * Every fault of the catalogue has a probe. A seam fault is defined in one area file
 * (simulator/src/faults/<area>.ts) and probed in the file of the same name here, through
 * probe.ts `probeArea`, which also checks the area's probes name exactly its faults.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SEAM_FAULTS, type Fault } from '../../src/faults/index.ts';

const srcDir = resolve(__dirname, '..', '..', 'src', 'faults');
/** The area files: every module of src/faults/ but the shape (define.ts) and the catalogue (index.ts). */
const areaFiles = readdirSync(srcDir).filter((f) => f.endsWith('.ts') && f !== 'define.ts' && f !== 'index.ts');

function isFault(x: unknown): x is Fault {
  return typeof x === 'object' && x !== null && typeof (x as Fault).name === 'string' && typeof (x as Fault).override === 'object';
}

/** The faults each area file exports (every exported array of faults). */
async function faultsByArea(): Promise<Map<string, Fault[]>> {
  const out = new Map<string, Fault[]>();
  for (const file of areaFiles) {
    const mod: Record<string, unknown> = await import(join(srcDir, file));
    out.set(
      basename(file, '.ts'),
      Object.values(mod)
        .filter((v): v is Fault[] => Array.isArray(v) && v.every(isFault))
        .flat(),
    );
  }
  return out;
}

describe('every fault has a probe', () => {
  it('each seam fault is defined in one area file, and each area file is in the catalogue', async () => {
    const byArea = await faultsByArea();
    const defined = [...byArea.values()].flat().map((f) => f.name);
    expect(new Set(defined).size, 'a fault defined twice').toBe(defined.length);
    expect([...defined].sort()).toEqual(SEAM_FAULTS.map((f) => f.name).sort());
  });

  it('each area file has a probe file of the same name that names each of its faults', async () => {
    for (const [area, faults] of await faultsByArea()) {
      const probeFile = join(__dirname, `${area}.test.ts`);
      expect(existsSync(probeFile), `simulator/test/faults/${area}.test.ts`).toBe(true);
      const text = readFileSync(probeFile, 'utf8');
      for (const f of faults) expect(text.includes(`'${f.name}'`), `probe of ${f.name} in ${area}.test.ts`).toBe(true);
    }
  });
});
