/**
 * `npm run cleanup`: restores, on the live tenant the environment names, every object a crashed
 * run changed and did not restore (helpers/live/fixture-journal.ts), and reports what it did. It writes a
 * lane's fixtures only while it holds that lane's lease (helpers/live/lanes.ts), so it never writes
 * under a run that holds the lane now; a lane that stays held is left for a later cleanup.
 * Exits non-zero when something could not be restored.
 */
import { ApiClient } from '../helpers/http/client';
import { pendingSnapshots, clearJournal, JOURNAL_FILE } from '../helpers/live/fixture-journal';
import { restoreAssistant, restoreTool } from '../helpers/world/fixtures';
import { readTargetConfig, onLoopback } from '../helpers/target/target';
import { acquireLane, AssistantLeaseStore, holderWords, newRunner, readLaneSettings } from '../helpers/live/lanes';
import { registerSecret, redact } from '../helpers/base/redact';

const target = readTargetConfig();
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
const settings = readLaneSettings(undefined, onLoopback(target.baseUrl));
const leases = new AssistantLeaseStore(clientFor(live.tenantId), settings.settleMs);
const me = newRunner();
for (const lane of [...new Set(pending.map((s) => s.lane ?? 1))].sort()) {
  const snaps = pending.filter((s) => (s.lane ?? 1) === lane);
  const got = await acquireLane(leases, me, { ...settings, only: lane });
  if (!got.ok) {
    failures += snaps.length;
    console.log(
      `cleanup: lane ${lane} is held by ${got.held.map(holderWords).join(', ') || 'another run'}: its ${snaps.length} snapshot(s) are left for a later npm run cleanup`,
    );
    continue;
  }
  for (const snap of snaps) {
    try {
      if (snap.resource === 'tool') await restoreTool(clientFor(snap.tenantId), snap.id, snap.state, snap.overridesOn);
      else await restoreAssistant(clientFor(snap.tenantId), snap.id, snap.state);
      console.log(`restored ${snap.resource} ${snap.id} (tenant ${snap.tenantId}, lane ${lane}, snapshot of ${snap.at})`);
    } catch (e) {
      failures += 1;
      console.log(redact(`could not restore ${snap.resource} ${snap.id}: ${(e as Error).message}`));
    }
  }
  await got.hold.release();
}
if (failures === 0) clearJournal();
console.log(`cleanup: ${pending.length - failures} restored, ${failures} failed`);
process.exit(failures ? 1 : 0);
