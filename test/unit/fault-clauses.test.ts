/**
 * Every simulator fault names the catalogue clauses it breaks (docs/mutation.md: the kill rule is
 * "a failing test names one of the fault's ids"). The simulator does not read the catalogue, so
 * this test is where the two meet: an id the catalogue does not hold would make its fault
 * unkillable by construction.
 */
import { describe, expect, it } from 'vitest';
import { FAULTS } from '../../simulator/src/faults/index.ts';
import { loadCatalogue } from '../../helpers/spec/catalogue';

describe('simulator faults cite catalogue clause ids', () => {
  const catalogue = loadCatalogue();

  it('every fault names at least one clause, and each is in spec/clauses/*.json', () => {
    const problems = FAULTS.flatMap((f) =>
      f.clauses.length === 0
        ? [`${f.name}: names no clause`]
        : f.clauses.filter((id) => !catalogue.has(id)).map((id) => `${f.name}: ${id} is not a catalogue clause`),
    );
    expect(problems).toEqual([]);
  });

  it('no fault cites a clause the catalogue marks not testable (it could only survive)', () => {
    const untestable = FAULTS.flatMap((f) => f.clauses.filter((id) => catalogue.get(id)?.targets.length === 0).map((id) => `${f.name}: ${id}`));
    expect(untestable).toEqual([]);
  });
});
