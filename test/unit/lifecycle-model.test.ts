/** The lifecycle model's judgments added for issue 39 (helpers/generate/lifecycle-model.ts): audit contents, slots under a race, deleted calls. */
import { describe, expect, it } from 'vitest';
import { allowedMint, allows, initialLifecycle, slotBreach, unlistedLabels } from '../../helpers/generate/lifecycle-model';

describe('lifecycle model', () => {
  const model = () => {
    const m = initialLifecycle();
    m.tenants[0].calls.push('live');
    m.tenants[0].sessions.push(0);
    m.tenants[0].labels.push(['Zoë #1', ' 🎧 night shift #2']);
    return m;
  };

  it('finds every label in an audit read of any shape, and names the ones it lacks', () => {
    const owner = model().tenants[0];
    expect(unlistedLabels(owner, 0, [{ actorLabel: 'Zoë #1' }, { who: { label: ' 🎧 night shift #2' } }])).toEqual([]);
    expect(unlistedLabels(owner, 0, [{ actorLabel: 'Zoë #1', closedAt: null }])).toEqual([' 🎧 night shift #2']);
    // Verbatim: a trimmed label is not the one supplied.
    expect(unlistedLabels(owner, 0, [{ actorLabel: 'Zoë #1' }, { actorLabel: '🎧 night shift #2' }])).toEqual([' 🎧 night shift #2']);
  });

  it('lets no more of the mints sent at once be accepted than slots are free', () => {
    expect(slotBreach(2, 0)).toBeUndefined();
    expect(slotBreach(2, 1)).toBeUndefined();
    expect(slotBreach(2, 3)).toMatch(/3 of the mints .* held 4 sessions/);
    expect(slotBreach(3, 2, 2)).toBeUndefined();
    expect(slotBreach(3, 3, 2)).toMatch(/3 of the mints .* with 2 free slots .* held 4 sessions/);
  });

  it('answers a deleted call with the 404 of an unknown one, and an ended one 409 not_live', () => {
    const m = model();
    const owner = m.tenants[0];
    owner.calls[0] = 'deleted';
    expect(allows(allowedMint(owner, 0, owner), 404, undefined)).toBe(true);
    expect(allows(allowedMint(owner, 0, owner), 409, 'not_live')).toBe(false);
    owner.calls[0] = 'ended';
    expect(allows(allowedMint(owner, 0, owner), 409, 'not_live')).toBe(true);
    expect(allows(allowedMint(owner, 0, owner), 409, 'agent_absent')).toBe(false);
  });
});
