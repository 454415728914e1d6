/**
 * Spec diff: which statements of the spec document changed between two versions, and which
 * catalogue clauses and tests each change touches. Both versions are parsed into numbered sections
 * and statements (spec-doc.ts: table rows, list items, paragraph sentences); table rows are
 * paired by their first cell, the rest by the `diff` package's array diff, and a removed and an
 * added statement that share most of their words count as one change.
 *
 * Clauses: a changed or removed statement takes the clauses `spec/statements.json` links to its
 * (old) key; an added statement has no link yet, so the clauses of its address (or section) are
 * shown as candidates and it is marked unlinked. The statements left without a test close the diff.
 */
import { diffArrays, diffWords } from 'diff';
import type { Clause } from '../spec/catalogue';
import { parseSpec, withinSection, type SpecStatement } from '../spec/spec-doc';
import { statementKey, type StatementLink } from './statements';

/** One changed statement. */
export interface StatementChange {
  kind: 'added' | 'removed' | 'changed';
  /** Numbered heading it sits under (`2.2`, `5`). */
  section: string;
  /** Finer address (`5.6` for §5 item 6), see spec-doc.ts. */
  address: string;
  subheading?: string;
  statementKind: SpecStatement['kind'];
  before?: string;
  after?: string;
  /** Statement key (helpers/report/statements.ts): the old statement's for changed and removed ones. */
  key: string;
  /**
   * The clauses linked to the statement (`clauseScope: 'statement'`), else the catalogue clauses
   * of its address, or of the whole section when the address has none.
   */
  clauses: { id: string; level: string; text: string; tests: string[] }[];
  clauseScope: 'statement' | 'address' | 'section';
  /** The statement's link status, when it is linked as informative or not testable. */
  status?: 'informative' | 'not-testable';
  /** No link in spec/statements.json names the statement (always so for an added one). */
  unlinked?: boolean;
}

/** The whole diff. */
export interface SpecDiff {
  changes: StatementChange[];
  /** Sections present in one version only. */
  sectionsAdded: string[];
  sectionsRemoved: string[];
  /** Section titles that changed (`2.3: old → new`). */
  sectionsRenamed: { section: string; before: string; after: string }[];
}

/** Share of words two statements have in common (0..1), by the `diff` package's word diff. */
export function similarity(a: string, b: string): number {
  const parts = diffWords(a, b);
  let same = 0;
  for (const p of parts) if (!p.added && !p.removed) same += p.value.trim().length;
  const total = a.replace(/\s+/g, '').length + b.replace(/\s+/g, '').length;
  return total === 0 ? 1 : (2 * same) / total;
}

/** Statements are paired as "changed" from this similarity up. */
export const SIMILAR = 0.5;

type Raw = Omit<StatementChange, 'clauses' | 'clauseScope' | 'status' | 'unlinked'>;

function diffStatements(section: string, before: SpecStatement[], after: SpecStatement[]): Raw[] {
  const out: Raw[] = [];
  const base = (s: SpecStatement) => ({ section, address: s.address, ...(s.subheading ? { subheading: s.subheading } : {}), statementKind: s.kind });
  // 1. table rows pair by key (first cell). List numbers are no identity: inserting an item
  //    renumbers the rest, so items pair by text like sentences.
  const keyed = (s: SpecStatement) => s.kind === 'row' && !!s.key;
  const keyedBefore = new Map(before.filter(keyed).map((s) => [s.key!, s]));
  const keyedAfter = new Map(after.filter(keyed).map((s) => [s.key!, s]));
  const unpairedBefore: SpecStatement[] = [];
  const unpairedAfter: SpecStatement[] = [];
  for (const [k, s] of keyedBefore) {
    const n = keyedAfter.get(k);
    if (!n) unpairedBefore.push(s);
    else if (n.text !== s.text) out.push({ kind: 'changed', ...base(n), key: statementKey(s), before: s.text, after: n.text });
  }
  for (const [k, n] of keyedAfter) if (!keyedBefore.has(k)) unpairedAfter.push(n);
  // 2. the rest by array diff on text, in document order
  const restBefore = before.filter((s) => !keyed(s));
  const restAfter = after.filter((s) => !keyed(s));
  const removed: SpecStatement[] = [...unpairedBefore];
  const added: SpecStatement[] = [...unpairedAfter];
  let i = 0;
  let j = 0;
  for (const part of diffArrays(
    restBefore.map((s) => s.text),
    restAfter.map((s) => s.text),
  )) {
    const n = part.count ?? part.value.length;
    if (part.removed) {
      removed.push(...restBefore.slice(i, i + n));
      i += n;
    } else if (part.added) {
      added.push(...restAfter.slice(j, j + n));
      j += n;
    } else {
      i += n;
      j += n;
    }
  }
  // 3. a removed and an added statement that mostly agree are one change
  for (const r of removed) {
    let best = -1;
    let score = 0;
    added.forEach((a, k) => {
      if (a.kind !== r.kind) return;
      const s = similarity(r.text, a.text);
      if (s > score) {
        score = s;
        best = k;
      }
    });
    if (best >= 0 && score >= SIMILAR) {
      const [a] = added.splice(best, 1);
      out.push({ kind: 'changed', ...base(a), key: statementKey(r), before: r.text, after: a.text });
    } else out.push({ kind: 'removed', ...base(r), key: statementKey(r), before: r.text });
  }
  for (const a of added) out.push({ kind: 'added', ...base(a), key: statementKey(a), after: a.text });
  return out;
}

/**
 * Diffs two versions of the spec document.
 * @param catalogue clauses to attach to each change.
 * @param testsOf tests that cover a clause id (from a run record or a test listing).
 * @param links statement links (spec/statements.json); without them every change gets the
 *   clauses of its address or section.
 */
export function diffSpecs(
  oldMd: string,
  newMd: string,
  catalogue: Iterable<Clause>,
  testsOf: (id: string) => string[] = () => [],
  links: StatementLink[] = [],
): SpecDiff {
  const linkOf = new Map(links.map((l) => [l.key, l]));
  const a = parseSpec(oldMd);
  const b = parseSpec(newMd);
  const clauses = [...catalogue];
  const before = new Map(a.sections.map((s) => [s.number, s]));
  const after = new Map(b.sections.map((s) => [s.number, s]));
  const result: SpecDiff = { changes: [], sectionsAdded: [], sectionsRemoved: [], sectionsRenamed: [] };
  const numbers = [...new Set([...before.keys(), ...after.keys()])].sort((x, y) => x.localeCompare(y, 'en', { numeric: true }));
  for (const n of numbers) {
    const s0 = before.get(n);
    const s1 = after.get(n);
    if (!s0) result.sectionsAdded.push(n);
    if (!s1) result.sectionsRemoved.push(n);
    if (s0 && s1 && s0.title !== s1.title) result.sectionsRenamed.push({ section: n, before: s0.title, after: s1.title });
    for (const raw of diffStatements(n, s0?.statements ?? [], s1?.statements ?? [])) {
      const link = raw.kind === 'added' ? undefined : linkOf.get(raw.key);
      const describe = (c: Clause) => ({ id: c.id, level: c.level, text: c.text, tests: testsOf(c.id) });
      if (link) {
        const linked = clauses.filter((c) => link.clauses?.includes(c.id));
        result.changes.push({ ...raw, clauses: linked.map(describe), clauseScope: 'statement', ...(link.status ? { status: link.status } : {}) });
        continue;
      }
      let scope: StatementChange['clauseScope'] = 'address';
      let hits = clauses.filter((c) => withinSection(c.section, raw.address));
      if (hits.length === 0) {
        scope = 'section';
        hits = clauses.filter((c) => withinSection(c.section, raw.section));
      }
      result.changes.push({ ...raw, clauses: hits.map(describe), clauseScope: scope, unlinked: true });
    }
  }
  return result;
}

/**
 * The changed and added statements no test covers: unlinked ones (every added statement until it
 * is linked) and linked ones whose clauses have no test. Removed statements and statements linked
 * as informative or not testable are not listed.
 */
export function statementsWithoutTest(d: SpecDiff): StatementChange[] {
  return d.changes.filter((c) => c.kind !== 'removed' && !c.status && (c.unlinked || c.clauses.every((k) => k.tests.length === 0)));
}

/**
 * Why a run record is no evidence of which tests cover which clause, or undefined when it is: no
 * test ran in it (none recorded, as in a run stopped before its first test, or every one skipped),
 * or it started before the newest suite file was last written (tests added, renamed or removed
 * since). A spec diff then lists the tests instead (helpers/report/list-tests.ts).
 * @param run the record's tests and start (ISO 8601)
 * @param newestSuiteMs modification time of the newest suite file, in ms since the epoch (undefined: not known)
 */
export function runRecordNotEvidence(run: { tests: readonly { status: string }[]; startedAt: string }, newestSuiteMs?: number): string | undefined {
  if (run.tests.length === 0) return 'no test ran in it';
  if (run.tests.every((t) => t.status === 'skip')) return `no test ran in it (all ${run.tests.length} skipped)`;
  const started = Date.parse(run.startedAt);
  if (newestSuiteMs !== undefined && Number.isFinite(started) && started < newestSuiteMs)
    return `it is older than the suite files (run started ${run.startedAt}, a suite file changed ${new Date(newestSuiteMs).toISOString()})`;
  return undefined;
}

/**
 * Where a spec diff's tests came from, in the words of its first line: a run record, or the
 * listing of the conformance tests (with why a record present was not used).
 */
export type CoverageSource = { kind: 'run'; file: string } | { kind: 'listing'; passedOver?: { file: string; why: string } };

/** The first line of a rendered spec diff: which source its tests came from, and why a run record was passed over. */
export function coverageSourceLine(source: CoverageSource): string {
  if (source.kind === 'run') return `Tests from the run record ${source.file}.`;
  const over = source.passedOver ? `; the run record ${source.passedOver.file} was not used: ${source.passedOver.why}` : '';
  return `Tests from the catalogue listing (vitest list --project conformance, without running them)${over}.`;
}

/**
 * Renders a spec diff as text for a terminal or a pull-request comment (Markdown). With `source`,
 * the first line says where its tests came from ({@link coverageSourceLine}).
 */
export function renderSpecDiff(d: SpecDiff, oldName: string, newName: string, source?: CoverageSource): string {
  const lines: string[] = [];
  if (source) lines.push(coverageSourceLine(source), '');
  const count = (k: StatementChange['kind']) => d.changes.filter((c) => c.kind === k).length;
  lines.push(`# Spec diff: ${oldName} → ${newName}`, '');
  lines.push(`${count('changed')} changed, ${count('added')} added, ${count('removed')} removed statements`, '');
  if (d.sectionsAdded.length) lines.push(`Sections added: ${d.sectionsAdded.map((s) => `§${s}`).join(', ')}`, '');
  if (d.sectionsRemoved.length) lines.push(`Sections removed: ${d.sectionsRemoved.map((s) => `§${s}`).join(', ')}`, '');
  for (const r of d.sectionsRenamed) lines.push(`Section §${r.section} renamed: "${r.before}" → "${r.after}"`, '');
  for (const c of d.changes) {
    const where = `§${c.address}${c.subheading ? ` (${c.subheading})` : ''}`;
    lines.push(`## ${c.kind} ${c.statementKind} in ${where}`, '');
    if (c.before !== undefined) lines.push(`- before: ${c.before}`);
    if (c.after !== undefined) lines.push(`+ after:  ${c.after}`);
    lines.push('');
    if (c.status) lines.push(`Linked as ${c.status} (spec/statements.json).`, '');
    else if (!c.clauses.length) lines.push(`No catalogue clause in §${c.section}: consider adding one.`, '');
    else {
      const scope =
        c.clauseScope === 'statement'
          ? 'Clauses linked to this statement'
          : `Not linked yet; candidate clauses of ${c.clauseScope === 'address' ? `§${c.address}` : `the whole §${c.section}`}`;
      lines.push(`${scope} (${c.clauses.length}):`);
      for (const k of c.clauses) {
        lines.push(`- ${k.id} (${k.level}) ${k.text} — ${k.tests.length ? `${k.tests.length} tests` : 'no test'}`);
        for (const t of k.tests.slice(0, 5)) lines.push(`    - ${t}`);
        if (k.tests.length > 5) lines.push(`    - … ${k.tests.length - 5} more`);
      }
      lines.push('');
    }
  }
  if (!d.changes.length) lines.push('No statement changed.');
  const untested = statementsWithoutTest(d);
  if (d.changes.length) {
    lines.push('## Statements left without a test', '');
    if (!untested.length) lines.push('None: every changed or added statement is linked to clauses with tests (or marked informative / not testable).');
    for (const c of untested) {
      const text = (c.after ?? c.before ?? '').slice(0, 120);
      lines.push(
        `- §${c.address} (${c.kind}): ${text}${c.unlinked ? ` — not linked: add {"key": ${JSON.stringify(c.key)}} to spec/statements.json` : ' — its linked clauses have no test'}`,
      );
    }
    lines.push('');
  }
  return lines.join('\n') + '\n';
}
