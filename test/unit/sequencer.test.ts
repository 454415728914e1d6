/** test/support/sequencer.ts: the files it starts first exist, each named once (a renamed file would silently lose its place). */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LONGEST } from '../support/sequencer';

describe('LONGEST', () => {
  it('names existing files, each once', () => {
    const root = join(import.meta.dirname, '..', '..');
    expect(LONGEST.filter((f) => !existsSync(join(root, f)))).toEqual([]);
    expect(new Set(LONGEST).size).toBe(LONGEST.length);
  });
});
