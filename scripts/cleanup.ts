/**
 * `npm run cleanup`: restores, on the live tenant the environment names, every object a crashed
 * run changed and did not restore (helpers/journal.ts), and reports what it did. Exits non-zero
 * when something could not be restored.
 */
import { ApiClient } from '../helpers/client';
import { pendingSnapshots, clearJournal, JOURNAL_FILE } from '../helpers/journal';
import { restoreAssistant, restoreTool } from '../helpers/fixtures';
import { readTargetConfig, loadEnv } from '../helpers/target';
import { registerSecret, redact } from '../helpers/redact';

const target = readTargetConfig(loadEnv());
const pending = pendingSnapshots();
if (pending.length === 0) {
  console.log(`cleanup: nothing to restore (${JOURNAL_FILE})`);
  process.exit(0);
}
if (target.mode !== 'live' || !target.live) {
  console.log(
    `cleanup: ${pending.length} snapshot(s) pending, but the target is a ${target.mode} simulator; simulator state is thrown away with it. Clearing the journal.`,
  );
  clearJournal();
  process.exit(0);
}
const live = target.live;
for (const v of [live.orgKey, live.tenantKey, live.otherTenantKey]) registerSecret(v, 'key');
const base = new ApiClient(target.baseUrl);
const clientFor = (tenantId: string) =>
  tenantId === live.tenantId
    ? base.as({ label: 'tenant key A', key: live.tenantKey })
    : tenantId === live.otherTenantId
      ? base.as({ label: 'tenant key B', key: live.otherTenantKey })
      : base.as({ label: 'organization key O', key: live.orgKey, tenantId });
let failures = 0;
for (const snap of pending) {
  try {
    if (snap.resource === 'tool') await restoreTool(clientFor(snap.tenantId), snap.id, snap.state, snap.overridesOn);
    else await restoreAssistant(clientFor(snap.tenantId), snap.id, snap.state);
    console.log(`restored ${snap.resource} ${snap.id} (tenant ${snap.tenantId}, snapshot of ${snap.at})`);
  } catch (e) {
    failures += 1;
    console.log(redact(`could not restore ${snap.resource} ${snap.id}: ${(e as Error).message}`));
  }
}
if (failures === 0) clearJournal();
console.log(`cleanup: ${pending.length - failures} restored, ${failures} failed`);
process.exit(failures ? 1 : 0);
