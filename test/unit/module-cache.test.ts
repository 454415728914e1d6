import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { UNMENDED } from '../support/module-cache';

describe("vitest's on-disk module cache and the patch that makes it safe (test/support/module-cache.ts)", () => {
  const patches = readdirSync('patches').filter((f) => f.startsWith('vitest+'));
  const installed = (JSON.parse(readFileSync('node_modules/vitest/package.json', 'utf8')) as { version: string }).version;

  it('the patch is for the vitest installed (an upgrade must carry the patch over or drop it)', () => {
    expect(patches).toEqual([`vitest+${installed}.patch`]);
  });

  it('the patch takes out exactly the line the guard looks for, and puts in one it does not', () => {
    const lines = readFileSync(`patches/${patches[0]}`, 'utf8').split('\n');
    const removed = lines.filter((l) => l.startsWith('-') && !l.startsWith('---'));
    const added = lines.filter((l) => l.startsWith('+') && !l.startsWith('+++'));
    expect(removed.length).toBe(1);
    expect(UNMENDED.test(removed[0])).toBe(true);
    expect(added.length).toBe(1);
    expect(UNMENDED.test(added[0])).toBe(false);
  });
});
