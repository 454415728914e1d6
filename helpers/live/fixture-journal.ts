/**
 * The live-fixture journal: before a suite changes a pre-existing object on a live tenant it
 * records the object's state here, and marks it restored once the cleanup ledger wrote it back.
 * `npm run cleanup` restores whatever a crashed run left unrestored. The journal holds resource
 * state only (names, settings), never a key: entries name the tenant by id.
 */
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Journal file (JSON lines), git-ignored. */
export const JOURNAL_FILE = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '.conformance-state', 'live-journal.jsonl');

/**
 * One journal line: a snapshot taken, or a snapshot restored. An `assistant` snapshot holds the
 * fields a PATCH writes back; a `tool` snapshot holds the body a PUT /tools/{id} writes back and
 * `overridesOn`, the assistants whose per-assistant overrides of the tool are cleared on restore
 * (helpers/world/fixtures.ts `restoreTool`). `lane` is the live-tenant lane the fixture belongs to
 * (helpers/live/lanes.ts; absent in journals written before lanes: lane 1), whose lease
 * `npm run cleanup` takes before it writes.
 */
export type JournalEntry =
  | { kind: 'snapshot'; at: string; tenantId: string; resource: 'assistant'; id: string; state: Record<string, unknown>; lane?: number }
  | { kind: 'snapshot'; at: string; tenantId: string; resource: 'tool'; id: string; state: Record<string, unknown>; overridesOn?: string[]; lane?: number }
  | { kind: 'restored'; at: string; id: string };

/** Appends one entry. */
export function journal(entry: JournalEntry, file = JOURNAL_FILE): void {
  mkdirSync(dirname(file), { recursive: true });
  appendFileSync(file, JSON.stringify(entry) + '\n');
}

/** Snapshots not yet restored, latest first per id (the oldest snapshot of an id is the state to go back to). */
export function pendingSnapshots(file = JOURNAL_FILE): Extract<JournalEntry, { kind: 'snapshot' }>[] {
  if (!existsSync(file)) return [];
  const open = new Map<string, Extract<JournalEntry, { kind: 'snapshot' }>>();
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const e = JSON.parse(line) as JournalEntry;
    if (e.kind === 'snapshot') {
      if (!open.has(e.id)) open.set(e.id, e);
    } else open.delete(e.id);
  }
  return [...open.values()];
}

/** Empties the journal (after a successful cleanup). */
export function clearJournal(file = JOURNAL_FILE): void {
  if (existsSync(file)) writeFileSync(file, '');
}
