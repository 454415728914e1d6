/**
 * Principals and fixtures, named the way ceph/s3-tests names its users: a test reads as
 * "tenant A asks for tenant B's assistant", not as header plumbing.
 *
 * On a simulator every suite file provisions its own organization O (tenants A and B), a second
 * organization P with a foreign tenant, and rotates A's key once so the old key is a rotated key
 * (§5.4). On a live tenant the operator's variables name them (control-api.md).
 */
import { beforeAll, afterAll, beforeEach, afterEach } from 'vitest';
import { randomBytes } from 'node:crypto';
import { ApiClient, trustContentLengthFraming, type Credentials } from '../http/client';
import { ControlClient } from '../target/control';
import { getTarget, missingFixtureReason, OPTIONAL_LIVE_VARIABLES, REQUIRED_LIVE_VARIABLES, type TargetConfig } from '../target/target';
import type { CurlCredential } from '../base/exchange';
import { registerSecret, redact } from '../base/redact';
import { Cleanup } from './cleanup';
import { currentTest } from '../record/current-test';
import { installEnvelopeAudit } from '../audits/envelope';
import { installWriteJournal } from '../live/write-journal';
import { installInvariantAudits } from '../audits';
import { noteOrganizationKey, noteRotation, noteTenant, noteTenantKey } from '../target/principals';
import { vitestTimeoutMs } from '../base/deadline';
import { CredentialRefusedError, REFUSED_PREFIX, refusalReason, refusedCredentialsOfRun, type RefusedCredential } from '../target/credentials';

/** A tenant as the suite knows it. `key` and `clientServerSecret` are secrets. */
export interface TenantFixture {
  id: string;
  key: string;
  clientServerSecret?: string;
}

/**
 * Named principals (§5.2 key types crossed with `X-Tenant-Id`):
 * - `tenantA`, `tenantB`: tenant keys, no X-Tenant-Id
 * - `orgA`, `orgB`: organization key with X-Tenant-Id of A / B
 * - `org`: organization key without X-Tenant-Id
 * - `orgForeign`: organization key with X-Tenant-Id of a tenant of another organization
 * - `tenantAasB`: tenant key A with X-Tenant-Id of B
 * - `tenantAasSelf`: tenant key A with its own X-Tenant-Id (unnecessary but allowed, §5.2)
 * - `anonymous`: no credential header
 * - `rotated`: a rotated-away key of A
 * - `secretAsKey`: A's client server secret presented as an API key (§5.5)
 * - `unknownKey`: a well-formed key nobody issued
 */
export type PrincipalName =
  'tenantA' | 'tenantB' | 'orgA' | 'orgB' | 'org' | 'orgForeign' | 'tenantAasB' | 'tenantAasSelf' | 'anonymous' | 'rotated' | 'secretAsKey' | 'unknownKey';

/** Everything a suite file needs to talk to the target. */
export interface World {
  target: TargetConfig;
  /** Random prefix of this run; every object a suite creates carries it in its name. */
  runPrefix: string;
  /** Organization key of O (secret). */
  orgKey: string;
  tenantA: TenantFixture;
  tenantB: TenantFixture;
  /** A tenant of another organization, when known. */
  foreignTenantId?: string;
  /** A rotated-away key of A, when known (secret). */
  rotatedKey?: string;
  /** Control API client, when the target has one. */
  control?: ControlClient;
  /** Cleanup ledger of this file: undo actions run after all tests; their errors are raised at the end. */
  cleanup: Cleanup;
  /** A client acting as a named principal. */
  as(principal: PrincipalName): ApiClient;
  /**
   * Why a principal cannot be formed on this target (a missing optional fixture, or on a live tenant
   * a credential form the check before the first test refused), or undefined when it can. Tests
   * skip with this reason; `as` throws it (a refused form as helpers/credentials.ts
   * `CredentialRefusedError`, which skips the test or its file's tests).
   */
  missing(principal: PrincipalName): string | undefined;
}

/** A fresh random run prefix, e.g. `cf-3f9a2c-`. Live fixtures use the stable {@link LIVE_PREFIX} instead. */
export function newRunPrefix(): string {
  return `cf-${randomBytes(3).toString('hex')}-`;
}

/** Name prefix of long-lived objects the suite keeps on a live tenant (helpers/live/lanes.ts adds the lane). */
export { LIVE_PREFIX } from '../live/lanes';

/** A syntactically valid key nobody issued (§5.6 "unknown or invalid key"). */
export const UNKNOWN_KEY = 'ck_unknown_0123456789abcdefABCDEF';

const LIVE_VARIABLES = { ...REQUIRED_LIVE_VARIABLES, ...OPTIONAL_LIVE_VARIABLES };

/** A fixture a principal's credential is made of, named as its live-target variable (helpers/target/target.ts). */
type CredentialFixture = 'orgKey' | 'tenantKey' | 'tenantId' | 'otherTenantKey' | 'otherTenantId' | 'foreignTenantId' | 'rotatedKey' | 'clientServerSecret';

/** The key nobody issued, which is no fixture: it is sent as it is, to a client and in a curl reproduction alike. */
const UNKNOWN = 'unknown';

/**
 * What each principal sends (§5.2): the fixture that holds its key (or the unknown key) and the one
 * that holds its X-Tenant-Id, with the key's words for reports; `undefined` sends no credential.
 * The client's credentials and a curl reproduction's shell words are both read from this table.
 */
const PRINCIPALS: Readonly<Record<PrincipalName, { label: string; key: CredentialFixture | typeof UNKNOWN; tenantId?: CredentialFixture } | undefined>> = {
  tenantA: { label: 'tenant key A', key: 'tenantKey' },
  tenantB: { label: 'tenant key B', key: 'otherTenantKey' },
  orgA: { label: 'organization key O', key: 'orgKey', tenantId: 'tenantId' },
  orgB: { label: 'organization key O', key: 'orgKey', tenantId: 'otherTenantId' },
  org: { label: 'organization key O', key: 'orgKey' },
  orgForeign: { label: 'organization key O', key: 'orgKey', tenantId: 'foreignTenantId' },
  tenantAasB: { label: 'tenant key A', key: 'tenantKey', tenantId: 'otherTenantId' },
  tenantAasSelf: { label: 'tenant key A', key: 'tenantKey', tenantId: 'tenantId' },
  anonymous: undefined,
  rotated: { label: 'rotated key A', key: 'rotatedKey' },
  secretAsKey: { label: 'client server secret A', key: 'clientServerSecret' },
  unknownKey: { label: 'unknown key', key: UNKNOWN },
};

/**
 * Why a principal's credential cannot act on a live tenant, when the check before the first test
 * refused its form (helpers/target/credentials.ts `refusalReason`): the reason names the variables and
 * the answer, and starts with {@link REFUSED_PREFIX}.
 */
function refusedReason(refused: readonly RefusedCredential[], row: { key: CredentialFixture; tenantId?: CredentialFixture }): string | undefined {
  if (!refused.length) return undefined;
  return refusalReason(refused, LIVE_VARIABLES[row.key], row.tenantId === undefined ? undefined : LIVE_VARIABLES[row.tenantId]);
}

/**
 * The shell words a curl reproduction (helpers/base/exchange.ts `curlReproduction`) sends for
 * `principal`'s key and X-Tenant-Id: the live-target variables that hold them (docs/control-api.md),
 * never the key. On a simulator the operator exports the provisioned values under those names.
 */
export function curlCredential(principal: PrincipalName): CurlCredential {
  const row = PRINCIPALS[principal];
  if (!row) return {};
  const key = row.key === UNKNOWN ? UNKNOWN_KEY : `$${LIVE_VARIABLES[row.key]}`;
  return row.tenantId === undefined ? { key } : { key, tenantId: `$${LIVE_VARIABLES[row.tenantId]}` };
}

/**
 * Tells the principals ledger (helpers/target/principals.ts) who the live principals are: tenants A and B
 * in the operator's organization, the foreign tenant in another, and the rotated key as rotated away.
 */
function noteLiveLedger(live: NonNullable<TargetConfig['live']>): void {
  const own = 'the operator organization';
  noteOrganizationKey(live.orgKey, own);
  noteTenantKey(live.tenantKey, live.tenantId, own);
  noteTenantKey(live.otherTenantKey, live.otherTenantId, own);
  if (live.foreignTenantId) noteTenant(live.foreignTenantId, 'another organization');
  if (live.rotatedKey) noteRotation(live.rotatedKey);
}

async function provisionOnSimulator(target: TargetConfig, runPrefix: string) {
  const control = new ControlClient(target.controlUrl!);
  const org = await control.organization(`${runPrefix}org-O`);
  const a = await control.tenant(org.id, `${runPrefix}tenant-A`);
  const b = await control.tenant(org.id, `${runPrefix}tenant-B`);
  const other = await control.organization(`${runPrefix}org-P`);
  const foreign = await control.tenant(other.id, `${runPrefix}tenant-F`);
  const rotatedKey = a.apiKey;
  const newKey = await control.rotate(a.apiKey);
  registerSecret(rotatedKey, 'rotated key A');
  registerSecret(newKey, 'tenant key A');
  registerSecret(b.apiKey, 'tenant key B');
  registerSecret(org.apiKey, 'organization key O');
  registerSecret(a.clientServerSecret, 'client server secret A');
  registerSecret(b.clientServerSecret, 'client server secret B');
  return {
    control,
    orgKey: org.apiKey,
    tenantA: { id: a.id, key: newKey, clientServerSecret: a.clientServerSecret },
    tenantB: { id: b.id, key: b.apiKey, clientServerSecret: b.clientServerSecret },
    foreignTenantId: foreign.id,
    rotatedKey,
  };
}

/**
 * Builds the world for one suite file: provisions (simulator) or reads (live) principals, and
 * makes sure every answer its clients receive passes the envelope audit (helpers/audits/envelope.ts).
 * @throws TargetConfigError when the live variables are incomplete; ControlError when provisioning fails.
 */
export async function createWorld(): Promise<World> {
  installEnvelopeAudit();
  installWriteJournal();
  installInvariantAudits();
  const target = getTarget();
  const runPrefix = newRunPrefix();
  let parts: Omit<World, 'target' | 'runPrefix' | 'cleanup' | 'as' | 'missing'>;
  if (target.capabilities.control && target.controlUrl) {
    parts = await provisionOnSimulator(target, runPrefix);
  } else {
    const live = target.live!;
    registerSecret(live.orgKey, 'organization key O');
    registerSecret(live.tenantKey, 'tenant key A');
    registerSecret(live.otherTenantKey, 'tenant key B');
    registerSecret(live.clientServerSecret, 'client server secret A');
    registerSecret(live.rotatedKey, 'rotated key A');
    noteLiveLedger(live);
    parts = {
      orgKey: live.orgKey,
      tenantA: { id: live.tenantId, key: live.tenantKey, clientServerSecret: live.clientServerSecret },
      tenantB: { id: live.otherTenantId, key: live.otherTenantKey },
      foreignTenantId: live.foreignTenantId,
      rotatedKey: live.rotatedKey,
    };
  }
  // Our simulator reads a GET's or DELETE's body by its length: such requests keep their connection (helpers/http/client.ts).
  if (target.capabilities.control) trustContentLengthFraming(target.baseUrl);
  const base = new ApiClient(target.baseUrl);
  const fixtures: Readonly<Record<CredentialFixture, string | undefined>> = {
    orgKey: parts.orgKey,
    tenantKey: parts.tenantA.key,
    tenantId: parts.tenantA.id,
    otherTenantKey: parts.tenantB.key,
    otherTenantId: parts.tenantB.id,
    foreignTenantId: parts.foreignTenantId,
    rotatedKey: parts.rotatedKey,
    clientServerSecret: parts.tenantA.clientServerSecret,
  };
  const refused = target.live ? refusedCredentialsOfRun() : [];
  const missing = (p: PrincipalName): string | undefined => {
    const row = PRINCIPALS[p];
    // Only an optional fixture can be absent: a live target without a required one is refused by getTarget.
    const absent = [row?.key, row?.tenantId].find((f) => f !== undefined && f !== UNKNOWN && !fixtures[f]);
    if (absent) return missingFixtureReason(absent as keyof typeof OPTIONAL_LIVE_VARIABLES);
    return row && row.key !== UNKNOWN ? refusedReason(refused, { key: row.key, tenantId: row.tenantId }) : undefined;
  };
  const creds = (p: PrincipalName): Credentials | undefined => {
    const row = PRINCIPALS[p];
    if (!row) return undefined;
    const key = row.key === UNKNOWN ? UNKNOWN_KEY : fixtures[row.key]!;
    return row.tenantId === undefined ? { label: row.label, key } : { label: row.label, key, tenantId: fixtures[row.tenantId]! };
  };
  return {
    target,
    runPrefix,
    cleanup: new Cleanup(),
    ...parts,
    as: (p) => {
      const why = missing(p);
      if (why?.startsWith(REFUSED_PREFIX)) throw new CredentialRefusedError(why);
      if (why) throw new Error(redact(`principal ${p} unavailable: ${why}`));
      return base.as(creds(p));
    },
    missing,
  };
}

/**
 * Registers `beforeAll`/`afterAll` hooks that build this file's world and run its cleanup ledger,
 * and returns a getter. Use at the top of a suite file: `const world = useWorld();` then `world()`.
 * The afterAll hook raises the cleanup errors it recorded (ceph/s3-tests style).
 */
export function useWorld(): () => World {
  let world: World | undefined;
  // Hook timeouts derived from the request deadline (helpers/base/deadline.ts): a hung request fails its attempt first.
  beforeAll(async () => {
    world = await createWorld();
  }, vitestTimeoutMs());
  afterAll(async () => {
    if (world) await world.cleanup.run();
  }, vitestTimeoutMs());
  return () => {
    if (!world) throw new Error('world not ready: call useWorld() at the top level of the suite file');
    return world;
  };
}

/**
 * A world per test, for a file whose tests each change tenant-level state (§6: the tenant-level
 * server URL every event without an assistant serverUrl goes to) and should still run
 * concurrently. On a target with a control API, `beforeEach` provisions a fresh world (its own
 * organization O with tenants A and B, as {@link createWorld}) and `afterEach` runs its cleanup
 * ledger, raising what it recorded. Without a control API there is one set of principals, so
 * every test gets `fileWorld()`. The getter answers the running test's world (found through
 * helpers/record/current-test.ts), else `fileWorld()` (in hooks).
 */
export function usePerTestWorld(fileWorld: () => World): () => World {
  const worlds = new Map<string, World>();
  beforeEach(async ({ task }) => {
    if (!getTarget().capabilities.control) return;
    worlds.set(task.id, await createWorld());
  });
  afterEach(async ({ task }) => {
    const w = worlds.get(task.id);
    worlds.delete(task.id);
    if (w) await w.cleanup.run();
  });
  return () => {
    const task = currentTest();
    return (task && worlds.get(task.id)) || fileWorld();
  };
}
