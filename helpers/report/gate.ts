/**
 * The pre-release gate: a yes/no on a run record. It says no when any `must` clause fails, when any
 * clause regressed (pass → fail) against a baseline, or when the record holds no conformance test;
 * one line per reason. A reviewed allow-list (spec/known-deviations.json, OpenID-conformance style)
 * can unblock a known failing clause until the entry's expiry date; an expired entry stops
 * unblocking and says so. A `must` clause with an `error` verdict (target or network trouble: not
 * verified) blocks too, unless `allowErrors` (the nightly) lists it as a warning. `allowErrors`
 * tolerates flakiness, not an outage: a run that could not reach its target, that checked no
 * `must` clause, or whose share of `must` clauses checked fell against the baseline by more than
 * `maxCheckedDrop` points blocks whatever the flags.
 * A failing `should` clause is a warning, and blocks only under `strict`.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { RunRecord } from './model';
import { compareRuns } from './baseline';
import type { RunComparison } from './model';
import { firstLine, whyLine } from './evidence';

const HERE = dirname(fileURLToPath(import.meta.url));

/** Default location of the allow-list, relative to the project root. */
export const KNOWN_DEVIATIONS_FILE = join('spec', 'known-deviations.json');

/** One allow-list entry (helpers/report/known-deviations.schema.json). */
export interface KnownDeviation {
  /** Catalogue clause id, e.g. `5.1/bearer-401`. */
  clause: string;
  /** Last day (YYYY-MM-DD, UTC, inclusive) on which the entry unblocks the gate. */
  expires: string;
  /** Why the failure is accepted and what will end it (at least 10 characters). */
  comment: string;
  reviewedBy?: string;
  issue?: string;
  /** Run modes the entry applies to (`embedded`, `external`, `live`); all when absent. */
  targets?: string[];
}

/**
 * Reads and checks the allow-list.
 * @throws Error naming the file and each violation when it is not JSON or breaks the schema.
 */
export function readKnownDeviations(file: string): KnownDeviation[] {
  const doc = JSON.parse(readFileSync(file, 'utf8'));
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  addFormats(ajv);
  const validate = ajv.compile<{ deviations: KnownDeviation[] }>(JSON.parse(readFileSync(join(HERE, 'known-deviations.schema.json'), 'utf8')));
  if (!validate(doc)) {
    const issues = (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message}`);
    throw new Error(`${file} is not a valid allow-list of known deviations:\n  ${issues.join('\n  ')}`);
  }
  return doc.deviations;
}

/**
 * Default of {@link GateInput.maxCheckedDrop} (`--max-checked-drop`): how far, in percentage
 * points, the share of `must` clauses a run checked may fall below the baseline's before the gate
 * blocks. 10 points lets a flaky night's scattered `error` verdicts through and stops a partial
 * outage (a file's set-up failing, a route family down), which costs more.
 */
export const DEFAULT_MAX_CHECKED_DROP = 10;

/**
 * The `must` clauses a run checked: verdict `pass` or `fail` (an `error` verified nothing), of the
 * `must` clauses testable somewhere (catalogue targets not empty); `share` in 0..1 (0 when none is testable).
 */
export function mustChecked(run: RunRecord): { checked: number; testable: number; share: number } {
  const must = run.clauses.filter((c) => c.level === 'must' && c.targets.length > 0);
  const checked = must.filter((c) => c.verdict === 'pass' || c.verdict === 'fail').length;
  return { checked, testable: must.length, share: must.length ? checked / must.length : 0 };
}

function checkedLine(m: { checked: number; testable: number; share: number }): string {
  return `${(m.share * 100).toFixed(1)}% (${m.checked} of ${m.testable})`;
}

/** Outcome of the gate: `ok` (exit 0) or not, the blocking reasons, and non-blocking notes. */
export interface GateResult {
  ok: boolean;
  /** One line per blocking reason. */
  reasons: string[];
  /** Allowed failures, expired or unused allow-list entries, error verdicts: never block. */
  notes: string[];
  /** The comparison used (when a baseline was given). */
  comparison?: RunComparison;
}

/** Inputs of {@link evaluateGate}. */
export interface GateInput {
  run: RunRecord;
  /** Baseline record to compare against (regressions block). */
  baseline?: RunRecord;
  baselineFile?: string;
  deviations?: KnownDeviation[];
  /** Today (for expiry); default now. */
  now?: Date;
  /** Let a partial run (file filter, `-t`, missing shards) decide the gate (default false: it blocks). */
  allowPartial?: boolean;
  /**
   * Let `must` clauses with an `error` verdict (not verified: the target or network misbehaved)
   * pass as warnings (the nightly's choice). Default false: a release gate fails closed.
   */
  allowErrors?: boolean;
  /**
   * Largest fall, in percentage points, of the share of `must` clauses checked (pass or fail)
   * against the baseline before the gate blocks, `allowErrors` or not (default
   * {@link DEFAULT_MAX_CHECKED_DROP}). Only with a baseline.
   */
  maxCheckedDrop?: number;
  /** Let failing `should` clauses block too (`--strict`); default false: they are red in the report, never blocking. */
  strict?: boolean;
}

/** Formats a date as YYYY-MM-DD in UTC. */
export function utcDay(d: Date): string {
  return d.toISOString().slice(0, 10);
}

/**
 * The gate's verdict as it is written: blocking reasons and notes in the order found, and the
 * allow-list entries applicable to the run's mode with the ones that were consulted.
 */
class GateLedger {
  readonly reasons: string[] = [];
  readonly notes: string[] = [];
  /** Allow-list entries consulted for a blocking clause (the rest are reported as unneeded). */
  readonly used = new Set<KnownDeviation>();

  constructor(
    /** Allow-list entries that apply to the run's target mode. */
    readonly entries: KnownDeviation[],
    /** Today, YYYY-MM-DD (UTC): an entry unblocks up to and including its expiry day. */
    private readonly today: string,
  ) {}

  /** The allow-list's say on a clause: an unexpired entry unblocks; an expired one is named. */
  private allowance(id: string): { allowed?: KnownDeviation; expired?: KnownDeviation } {
    const list = this.entries.filter((d) => d.clause === id);
    for (const d of list) this.used.add(d);
    const allowed = list.find((d) => d.expires >= this.today);
    return allowed ? { allowed } : { expired: list[0] };
  }

  /** Blocks on `line`, unless the allow-list unblocks clause `id` (then a note says so). */
  block(id: string, line: string): void {
    const { allowed, expired } = this.allowance(id);
    if (allowed) this.notes.push(`allowed: ${line} — known deviation until ${allowed.expires}: ${allowed.comment}`);
    else if (expired) this.reasons.push(`${line} (allow-list entry expired on ${expired.expires}, no longer unblocks: ${expired.comment})`);
    else this.reasons.push(line);
  }

  /** Marks the reason or allowed note about failing clause `was` as a regression too. */
  markRegressed(was: string): void {
    const i = this.reasons.findIndex((x) => x.startsWith(was));
    if (i >= 0) this.reasons[i] = this.reasons[i].replace(was, `${was} (regressed: pass → fail)`);
    else {
      const j = this.notes.findIndex((x) => x.startsWith(`allowed: ${was}`));
      if (j >= 0) this.notes[j] = this.notes[j].replace(was, `${was} (regressed: pass → fail)`);
    }
  }
}

/** What no flag excuses in a run as a whole: an unreachable target (or another outage that stopped it before its first test, such as no free lane), no test, no must clause checked; and a partial run. */
function judgeRunAsAWhole(input: GateInput, checked: ReturnType<typeof mustChecked>, ledger: GateLedger): void {
  const { run } = input;
  if (run.unreachable)
    ledger.reasons.push(
      `${run.unreachable.what ?? 'the target could not be reached'}, no test ran: ${run.unreachable.cause} (fix: ${run.unreachable.fix}); --allow-errors tolerates a flaky target, not an outage`,
    );
  else if (run.summary.total === 0) ledger.reasons.push('no conformance test ran: the record holds no test, so it proves nothing');
  // Errors are tolerated one by one (allowErrors); a run that verified nothing is an outage, not flakiness.
  if (!run.unreachable && run.summary.total > 0 && checked.testable > 0 && checked.checked === 0) {
    ledger.reasons.push(
      `the run checked no must clause (every one errored, was skipped or not covered): it proves nothing; --allow-errors tolerates a flaky target, not an outage`,
    );
  }
  if (run.partial && !input.allowPartial)
    ledger.reasons.push(
      `partial run (${run.partial.reasons.join('; ')}): clauses whose tests did not run were not verified (--allow-partial lets such a run decide)`,
    );
  else if (run.partial) ledger.notes.push(`partial run: ${run.partial.reasons.join('; ')}`);
}

/** Failing clauses: a `must` blocks, a `should` blocks only under `strict` (a warning otherwise). */
function judgeFailingClauses(input: GateInput, ledger: GateLedger): void {
  for (const c of input.run.clauses) {
    if (c.level === 'must' && c.verdict === 'fail') ledger.block(c.id, `must clause ${c.id} fails: ${whyLine(c.message, 200) || c.text}`);
    else if (c.level === 'should' && c.verdict === 'fail') {
      const line = `should clause ${c.id} fails: ${whyLine(c.message, 200) || c.text}`;
      if (input.strict) ledger.block(c.id, `${line} (--strict)`);
      else ledger.notes.push(`warning: ${line} (blocks only with --strict)`);
    }
  }
}

/** Against a baseline: a fall in the share of must clauses checked, and regressions (pass → fail). */
function judgeAgainstBaseline(input: GateInput & { baseline: RunRecord }, checked: ReturnType<typeof mustChecked>, ledger: GateLedger): RunComparison {
  const margin = input.maxCheckedDrop ?? DEFAULT_MAX_CHECKED_DROP;
  const before = mustChecked(input.baseline);
  const drop = (before.share - checked.share) * 100;
  if (checked.checked > 0 && before.checked > 0 && drop > margin) {
    ledger.reasons.push(
      `the share of must clauses checked fell from ${checkedLine(before)} in the baseline to ${checkedLine(checked)}, ` +
        `${drop.toFixed(1)} points, more than the ${margin}-point margin (--max-checked-drop): the target answered less than last time; --allow-errors tolerates a flaky target, not an outage`,
    );
  }
  const comparison = compareRuns(input.baseline, input.run, input.baselineFile);
  for (const r of comparison.regressions) {
    // A failing must clause (or should, under strict) was judged above: say that it also regressed.
    if (r.level === 'must' || (input.strict && r.level === 'should')) ledger.markRegressed(`${r.level} clause ${r.id} fails`);
    else ledger.block(r.id, `${r.level} clause ${r.id} regressed: pass → fail: ${whyLine(r.message, 200) || r.text}`);
  }
  return comparison;
}

/** Clauses with an `error` verdict: an unverified must clause blocks unless `allowErrors`; the rest are warnings. */
function judgeUnverifiedClauses(input: GateInput, checked: ReturnType<typeof mustChecked>, ledger: GateLedger): void {
  const { run } = input;
  const unverified = run.clauses.filter((c) => c.level === 'must' && c.verdict === 'error').length;
  if (unverified > 0 && input.allowErrors) {
    ledger.notes.push(
      `--allow-errors: ${unverified} must clause${unverified > 1 ? 's' : ''} could not be verified this run (target or network trouble, error verdicts below) and pass as warnings; must clauses checked: ${checkedLine(checked)}`,
    );
  }
  for (const c of run.clauses) {
    if (c.verdict !== 'error') continue;
    const line = `${c.level} clause ${c.id} has no verdict, the target or network misbehaved: ${firstLine(c.message, 160)}`;
    // Fail closed: a must clause that could not be verified blocks a release unless errors are allowed.
    if (c.level === 'must' && !input.allowErrors) ledger.block(c.id, `${line} (unverified must clause; --allow-errors lets it pass as a warning)`);
    else ledger.notes.push(`warning: ${line}`);
  }
}

/** Allow-list entries naming no clause of the run's catalogue, or not needed this run: notes. */
function noteIdleAllowances(run: RunRecord, ledger: GateLedger): void {
  const known = new Set(run.clauses.map((c) => c.id));
  for (const d of ledger.entries) {
    if (!known.has(d.clause)) ledger.notes.push(`allow-list entry for ${d.clause} names no clause of this run's catalogue`);
    else if (!ledger.used.has(d)) ledger.notes.push(`allow-list entry for ${d.clause} (until ${d.expires}) is no longer needed: the clause does not fail`);
  }
}

/** Decides the gate. Never throws on a well-formed record. */
export function evaluateGate(input: GateInput): GateResult {
  const { run } = input;
  const entries = (input.deviations ?? []).filter((d) => !d.targets || d.targets.includes(run.target.mode));
  const ledger = new GateLedger(entries, utcDay(input.now ?? new Date()));
  const checked = mustChecked(run);
  judgeRunAsAWhole(input, checked, ledger);
  judgeFailingClauses(input, ledger);
  const comparison = input.baseline ? judgeAgainstBaseline({ ...input, baseline: input.baseline }, checked, ledger) : undefined;
  judgeUnverifiedClauses(input, checked, ledger);
  noteIdleAllowances(run, ledger);
  const result: GateResult = { ok: ledger.reasons.length === 0, reasons: ledger.reasons, notes: ledger.notes };
  if (comparison) result.comparison = comparison;
  return result;
}
