/** helpers/generate/step-failure.ts `replayLine`: the seed and path a model-based failure prints, as the variables that replay it. */
import { describe, expect, it } from 'vitest';
import { replayLine, counterexampleScript } from '../../helpers/generate/step-failure';

describe('replayLine', () => {
  it('names FC_PATH only when the run has a shrink path', () => {
    expect(replayLine({ seed: 42, counterexamplePath: '3:0:1' })).toBe('seed 42, path 3:0:1; replay with FC_SEED=42 FC_PATH=3:0:1');
    expect(replayLine({ seed: -7, counterexamplePath: null })).toBe('seed -7, path -; replay with FC_SEED=-7');
    expect(replayLine({ seed: 1 })).toBe('seed 1, path -; replay with FC_SEED=1');
  });
});

describe('counterexampleScript', () => {
  it('prints the shrunk commands one per line, and ? without a counterexample', () => {
    const cmds = [{ toString: () => 'PATCH a' }, { toString: () => 'GET a' }];
    expect(counterexampleScript({ counterexample: [cmds] })).toBe('PATCH a\n    GET a');
    expect(counterexampleScript({ counterexample: null })).toBe('?');
  });
});
