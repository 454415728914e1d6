/**
 * The ways of spec/statements.json (docs/mutation.md, "Ways"): every testable statement lists the
 * plausible ways an implementation breaks it, and each way is covered (a simulator fault and the
 * catalogue clause whose tests kill it) or explained (unobservable, or allowed by another careful
 * reading). Every fault of the catalogue proves at least one way.
 */
import { describe, expect, it } from 'vitest';
import { FAULTS } from '../../simulator/src/faults/index.ts';
import { loadCatalogue } from '../../helpers/spec/catalogue';
import { checkWays, loadStatementLinks, wayProofs, type StatementLink } from '../../helpers/report/statements';
import { CAUSES, checkCauses } from '../../tools/causes';

describe('spec/statements.json ways', () => {
  it('every testable statement lists ways, each covered by a fault and its test or explained; every fault proves a way', () => {
    const catalogue = loadCatalogue();
    const problems = checkWays(
      loadStatementLinks(),
      FAULTS.map((f) => ({ name: f.name, clauses: f.clauses })),
      catalogue,
    );
    expect(problems).toEqual([]);
  });
});

describe('spec/statements.json causes', () => {
  it('every cause under an API (database, cache, parsers, writes, lifecycles) is named by a covered or explained way', () => {
    expect(checkCauses(loadStatementLinks())).toEqual([]);
  });
  it('flags a cause no way names, and a way naming an unknown cause', () => {
    const link: StatementLink = {
      key: 'k',
      address: '1',
      excerpt: '',
      clauses: ['1/a'],
      ways: [
        { fault: 'f.one', test: '1/a', cause: 'cache' },
        { fault: 'f.two', test: '1/a', cause: 'gremlins' },
      ],
    };
    const p = checkCauses(
      [link],
      CAUSES.filter((c) => c.name === 'cache' || c.name === 'collation'),
    ).join('\n');
    expect(p).toContain('unknown cause "gremlins"');
    expect(p).toContain('cause "collation"');
    expect(p).not.toContain('cause "cache"');
  });
});

describe('checkWays', () => {
  const catalogue = new Map([
    ['1/a', { targets: ['simulator', 'live'] }],
    ['1/b', { targets: ['simulator'] }],
    ['1/x', { targets: [] }],
  ]);
  const faults = [
    { name: 'f.one', clauses: ['1/a'] },
    { name: 'f.two', clauses: ['1/b'] },
  ];
  const link = (ways: StatementLink['ways']): StatementLink => ({ key: 'k', address: '1', excerpt: '', clauses: ['1/a'], ways });

  it('accepts covered and explained ways', () => {
    expect(
      checkWays(
        [
          link([
            { fault: 'f.one', test: '1/a', live: true },
            { fault: 'f.two', test: '1/b' },
            { way: 'w', explained: 'allowed: another reading' },
          ]),
        ],
        faults,
        catalogue,
      ),
    ).toEqual([]);
  });
  it('flags a statement without ways, and a fault no way lists', () => {
    const p = checkWays([link([])], faults, catalogue).join('\n');
    expect(p).toContain('lists no ways');
    expect(p).toContain('fault f.one is listed by no way');
  });
  it('flags a way that is neither covered nor explained, an unknown fault, and a test the fault does not name', () => {
    const p = checkWays(
      [link([{ way: 'w' }, { fault: 'f.nope', test: '1/a' }, { fault: 'f.one', test: '1/b' }, { fault: 'f.two', test: '1/b' }])],
      faults,
      catalogue,
    ).join('\n');
    expect(p).toContain('neither covered');
    expect(p).toContain('unknown fault f.nope');
    expect(p).toContain('does not name clause 1/b');
  });
  it('flags an explanation without its kind or its way, and a live way whose test does not run live', () => {
    const p = checkWays(
      [link([{ way: 'w', explained: 'because' }, { explained: 'allowed: x' }, { fault: 'f.two', test: '1/b', live: true }, { fault: 'f.one', test: '1/a' }])],
      faults,
      catalogue,
    ).join('\n');
    expect(p).toContain('must start');
    expect(p).toContain('needs "way"');
    expect(p).toContain('does not run there');
  });
  it('flags ways on a statement that is not testable', () => {
    const p = checkWays(
      [
        { key: 'n', address: '1', excerpt: '', status: 'not-testable', reason: 'r', ways: [{ way: 'w', explained: 'allowed: x' }] },
        link([
          { fault: 'f.one', test: '1/a' },
          { fault: 'f.two', test: '1/b' },
        ]),
      ],
      faults,
      catalogue,
    );
    expect(p.join('\n')).toContain('is not-testable but lists ways');
  });
});

describe('wayProofs', () => {
  const links: StatementLink[] = [
    {
      key: 's1',
      address: '1',
      excerpt: '',
      clauses: ['1/a', '1/b'],
      ways: [
        { fault: 'f.one', test: '1/a' },
        { fault: 'f.one', test: '1/b' },
        { fault: 'f.two', test: '1/a' },
        { fault: 'f.three', test: '1/b' },
        { way: 'w', explained: 'allowed: x' },
      ],
    },
  ];
  it('proves a way only by a killer naming its clause; a first-kill run leaves the others not shown', () => {
    const r = wayProofs(links, [
      { name: 'f.one', verdict: 'killed', killedBy: [{ clauses: ['1/a'] }] },
      { name: 'f.two', verdict: 'survived', killedBy: [] },
      { name: 'f.three', verdict: 'killed', killedBy: [{ clauses: ['1/a'] }], stoppedEarly: true },
    ]);
    expect(r.proven).toBe(1);
    expect(r.unproven.map((u) => `${u.fault} ${u.test} ${u.reason}`)).toEqual(['f.one 1/b killed by no test of 1/b', 'f.two 1/a not killed']);
    expect(r.notShown.map((u) => u.fault)).toEqual(['f.three']);
  });
  it('leaves out ways whose fault did not run', () => {
    expect(wayProofs(links, [])).toEqual({ proven: 0, unproven: [], notShown: [] });
  });
});
