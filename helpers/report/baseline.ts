/**
 * Baseline history: compares a run record with a baseline record (an earlier `reports/conformance.json`)
 * clause by clause. Regressions are clauses that passed in the baseline and fail now; fixes the
 * reverse; newly skipped are clauses that ran (pass, fail, error) before and are skipped now; new
 * drift is an undocumented field, error code or status not seen before (§9.4); request counts are
 * compared per suite file. Works on records alone.
 */
import { driftKey, type ClauseChange, type ClauseVerdict, type RequestCountChange, type RunComparison, type RunRecord } from './model';

/**
 * Compares `current` with `baseline`.
 * @param baselineFile name shown in reports (a path as the user gave it); never read here.
 */
export function compareRuns(baseline: RunRecord, current: RunRecord, baselineFile?: string): RunComparison {
  const before = new Map(baseline.clauses.map((c) => [c.id, c]));
  const after = new Map(current.clauses.map((c) => [c.id, c]));
  const regressions: ClauseChange[] = [];
  const fixes: ClauseChange[] = [];
  const newlySkipped: ClauseChange[] = [];
  const otherChanges: ClauseChange[] = [];
  const ran = new Set<ClauseVerdict>(['pass', 'fail', 'error']);
  for (const id of new Set([...before.keys(), ...after.keys()])) {
    const b = before.get(id);
    const a = after.get(id);
    const from = b?.verdict ?? 'absent';
    const to = a?.verdict ?? 'absent';
    if (from === to) continue;
    const c = (a ?? b)!;
    const change: ClauseChange = { id, section: c.section, level: c.level, text: c.text, from, to };
    if (a?.message) change.message = a.message;
    if (from === 'pass' && to === 'fail') regressions.push(change);
    else if (from === 'fail' && to === 'pass') fixes.push(change);
    else if (to === 'skip' && ran.has(from as ClauseVerdict)) newlySkipped.push(change);
    else otherChanges.push(change);
  }
  const seen = new Set(baseline.drift.map(driftKey));
  const newDrift = current.drift.filter((d) => !seen.has(driftKey(d)));
  const files = new Set([...Object.keys(baseline.requests.perFile), ...Object.keys(current.requests.perFile)]);
  const requestChanges: RequestCountChange[] = [];
  for (const file of [...files].sort()) {
    const b = baseline.requests.perFile[file] ?? 0;
    const a = current.requests.perFile[file] ?? 0;
    if (a !== b) requestChanges.push({ file, before: b, after: a });
  }
  const byId = (x: ClauseChange, y: ClauseChange) => x.id.localeCompare(y.id, 'en', { numeric: true });
  const out: RunComparison = {
    baseline: { startedAt: baseline.startedAt, target: baseline.target },
    regressions: regressions.sort(byId),
    fixes: fixes.sort(byId),
    newlySkipped: newlySkipped.sort(byId),
    otherChanges: otherChanges.sort(byId),
    newDrift,
    requestChanges,
    requestTotals: { before: baseline.requests.total, after: current.requests.total },
  };
  if (baselineFile) out.baseline.file = baselineFile;
  return out;
}

/** Whether a comparison holds anything worth leading a report with. */
export function hasChanges(c: RunComparison): boolean {
  return c.regressions.length + c.fixes.length + c.newlySkipped.length + c.otherChanges.length + c.newDrift.length + c.requestChanges.length > 0;
}
