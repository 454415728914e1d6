import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { clearJournal, journal, pendingSnapshots } from '../../helpers/live/fixture-journal';
import { scratchDir } from '../support/scratch';

describe('live-fixture journal (npm run cleanup)', () => {
  it('keeps the first snapshot of an object until it is restored', () => {
    const file = join(scratchDir('journal-'), 'j.jsonl');
    const at = new Date().toISOString();
    journal({ kind: 'snapshot', at, tenantId: 't', resource: 'assistant', id: 'a1', state: { name: 'first' } }, file);
    journal({ kind: 'snapshot', at, tenantId: 't', resource: 'assistant', id: 'a1', state: { name: 'second' } }, file);
    journal({ kind: 'snapshot', at, tenantId: 't', resource: 'assistant', id: 'a2', state: { name: 'x' } }, file);
    journal({ kind: 'restored', at, id: 'a2' }, file);
    expect(pendingSnapshots(file).map((s) => [s.id, s.state.name])).toEqual([['a1', 'first']]);
    clearJournal(file);
    expect(pendingSnapshots(file)).toEqual([]);
  });

  it('keeps tool snapshots with the assistants whose overrides their restore clears', () => {
    const file = join(scratchDir('journal-'), 'j.jsonl');
    const at = new Date().toISOString();
    journal(
      {
        kind: 'snapshot',
        at,
        tenantId: 't',
        resource: 'tool',
        id: 'tool1',
        state: { name: 'conformance-suite-tool', textInstructions: null },
        overridesOn: ['a1'],
      },
      file,
    );
    journal({ kind: 'snapshot', at, tenantId: 't', resource: 'assistant', id: 'a1', state: { name: 'x' } }, file);
    journal({ kind: 'restored', at, id: 'a1' }, file);
    const pending = pendingSnapshots(file);
    expect(pending.map((s) => [s.resource, s.id])).toEqual([['tool', 'tool1']]);
    expect(pending[0]!.resource === 'tool' && pending[0]!.overridesOn).toEqual(['a1']);
  });
});
