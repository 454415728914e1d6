/**
 * What the cross-tenant suite (suites/cross-tenant.test.ts, §5.7; its tests by concern in
 * suites/cross-tenant/) stands on: tenant B's (and A's) resources, made once per run before its
 * tests, and the principals that ask on behalf of tenant A. The test file calls
 * {@link useCrossTenantFixture} once and hands it to each concern: on a live tenant these are
 * found-or-created named fixtures, restored at the end, and a second file restoring the same
 * assistant while the first compares it before and after a refused write would read a change.
 *
 * Tenant B's resources come from B's own API calls (assistants, tools, prompts) or from the control
 * API (calls, conversations, phone numbers). On a live tenant: B's assistant is a found-or-created
 * fixture, B's finished call is CORE_API_OTHER_CALL_ID and B's number CORE_API_OTHER_SMS_FROM_NUMBER;
 * B's calls that tenant A's credentials try to end, take over or mint on are calls the suite started
 * itself through the operator's trigger (`tenantId` B in its request, docs/event-trigger.md), on B's
 * fixture assistants, and ended through it afterwards: so a broken isolation could only act on a
 * call the suite started. Anything that would text or litter runs only with the matching capability.
 */
import { beforeAll, vi } from 'vitest';
import { randomInt, randomUUID } from 'node:crypto';
import { useWorld, type PrincipalName, type World } from '../../helpers/world/world';
import { assistantFixture, promptFixture, toolFixture } from '../../helpers/world/fixtures';
import { capabilityReason, missingFixtureReason, switchReason } from '../../helpers/target/target';
import { eventsFor, type Events, type StartedCall } from '../../helpers/target/events';
import { EVENT_UNSUPPORTED_NAME } from '../../helpers/base/error-names';
import { sharedVerifier, type Verify } from '../../helpers/checks/clause';
import type { ApiResponse } from '../../helpers/base/exchange';

/** Tenant B's (and A's) resources used by a cross-tenant file; a missing one has its reason in `why`. */
export interface Fixtures {
  assistantA: { id: string };
  assistantB: { id: string };
  toolB?: string;
  /** The name tenant B's tool carries (the fixture's; its PUTs keep it). */
  toolBName?: string;
  /** A live call of B, started through the event source (the control API, or the operator's trigger on a live tenant). */
  callBLive?: StartedCall;
  /**
   * A finished call of B that the suite started and ended itself through the event source, for the
   * actions that must not touch a call the suite did not start (CORE_API_OTHER_CALL_ID is only read).
   */
  callBEnded?: { id: string; callId?: string };
  /** The event source (helpers/target/events.ts), undefined when the target has none; set with the fixtures. */
  events?: Events;
  /** B's fixture assistant for calls started one at a time by single tests (the trigger holds one call per assistant). */
  assistantBCalls?: { id: string };
  /** A finished call of B whose insights have landed (simulator) or CORE_API_OTHER_CALL_ID (live). */
  callBDone?: { id: string; callId?: string };
  /** A call of A the suite started and then deleted through the event source (a simulator's control API, or the trigger's `delete-call`). */
  callADeleted?: string;
  /** An SMS-capable number of B (E.164). */
  numberB?: string;
  /** A number of A that was deleted (E.164; simulator only). */
  numberADeleted?: string;
  conversationB?: string;
  promptB?: string;
  /** Why a fixture is absent, keyed by field name. */
  why: Record<string, string>;
}

/** A never-existed E.164 number: the fictional 555-01xx range (NANP reserves it for fiction), random area code. */
export function fictionalNumber(): string {
  return `+1${randomInt(201, 990)}55501${String(randomInt(0, 100)).padStart(2, '0')}`;
}

/** Body of POST /tools and PUT /tools/{id}: §4.5 names `instruction` with title, description, steps; the rest is not shown. */
export function toolBody(name: string) {
  return { name, instruction: { title: name, description: 'conformance isolation fixture', steps: [] } };
}

/** The principals that ask on behalf of tenant A: its tenant key, and the organization key naming A. */
/**
 * §5.7: an id of another tenant answers 404 RESOURCE_NOT_FOUND, checked on `verify`'s clauses and
 * 5.7/foreign-resource-not-found (a shared verifier: a test that calls it lists it among its clauses).
 */
export const checkForeignNotFound = sharedVerifier('5.7/foreign-resource-not-found', (verify: Verify, res: ApiResponse, words: string): void =>
  verify.on([...verify.clauses, ...checkForeignNotFound.clauses]).error(res, 404, 'RESOURCE_NOT_FOUND', words),
);

export const ASKERS: { principal: PrincipalName; words: string }[] = [
  { principal: 'tenantA', words: 'tenant key A' },
  { principal: 'orgA', words: 'organization key with X-Tenant-Id A' },
];

/** The body of the call actions (end, takeover, monitor session) these files send. */
export const ACTOR = { actorLabel: 'conformance isolation check' };
/** A step id no tool has, for the step text-override routes. */
export const STEP = randomUUID();
/** The path suffix of the step text-override route for {@link STEP}. */
export const stepSuffix = () => `/steps/${STEP}/text-override`;

/** The world of the cross-tenant test file and tenant B's (and A's) resources, filled in before its tests. */
export interface CrossTenantFixture {
  world: () => World;
  fx: Fixtures;
}

/** A fixture value, or why it could not be made on this target. */
type Made<T> = { value: T } | { why: string };

/**
 * Sets up the calling suite file's world and, before its tests, tenant B's (and A's) resources
 * ({@link Fixtures}; one that cannot be made on this target has its reason in `why`). `fx` is
 * filled in then: read its fields inside tests and row closures, never at the file's top.
 */
export function useCrossTenantFixture(): CrossTenantFixture {
  const world = useWorld();
  const fx = { why: {} } as Fixtures;

  async function fixture<K extends Exclude<keyof Fixtures, 'why'>>(key: K, make: () => Promise<Made<Fixtures[K]>>): Promise<void> {
    try {
      const m = await make();
      if ('why' in m) fx.why[key] = m.why;
      else fx[key] = m.value;
    } catch (e) {
      fx.why[key] = `precondition failed: fixture ${key} could not be made (${(e as Error).message.slice(0, 200)})`;
    }
  }

  /**
   * Makes the fixtures side by side where none stands on another (issue 43: on a live tenant each is a
   * look-up by name, a request or two at the answer time): A's and B's assistants together, then B's
   * tool (its restore clears the overrides on B's assistant), B's prompt, the calls and the
   * control API's objects, each of these chains in its own order.
   */
  async function makeFixtures(w: World): Promise<void> {
    const A = w.as('tenantA');
    const B = w.as('tenantB');
    // Both settle before either failure is thrown, so no look-up is left in flight behind the file's set-up.
    const [a, b] = await Promise.allSettled([assistantFixture(w, A, 'xtenant-a'), assistantFixture(w, B, 'xtenant-b')]);
    if (a.status === 'rejected') throw a.reason;
    if (b.status === 'rejected') throw b.reason;
    fx.assistantA = a.value;
    fx.assistantB = b.value;
    // `fixture` never throws: a fixture that cannot be made has its reason in `why`.
    await Promise.all([makeTool(w, B), makeCalls(w), makeControlled(w)]);
  }

  /** B's tool and B's prompt, side by side. */
  async function makeTool(w: World, B: ReturnType<World['as']>): Promise<void> {
    // No DELETE is shown for tools or prompts: on a live tenant they are fixtures found or made once
    // (helpers/world/fixtures.ts); B's tool is PUT back and its overrides on B's assistant cleared at the end.
    const tool = fixture('toolB', async () => {
      const made = await toolFixture(w, B, 'xtenant-b-tool', { instruction: toolBody('xtenant-b-tool').instruction, textInstructions: null }, () => [
        fx.assistantB.id,
      ]);
      fx.toolBName = made.body.name;
      return { value: made.id };
    });
    const prompt = fixture('promptB', async () => {
      const made = await promptFixture(w, B, 'xtenant-b-prompt', 'chat', 'conformance isolation fixture');
      return { value: made.id as string };
    });
    await Promise.all([tool, prompt]);
  }

  /** The calls of B and A, one after another in the order they stand on each other (the trigger holds one call per assistant). */
  async function makeCalls(w: World): Promise<void> {
    const B = w.as('tenantB');
    const control = w.control;
    const events = eventsFor(w.target, control);
    fx.events = events;
    const noEvents = { why: capabilityReason('events') };
    await fixture('callBLive', async () => {
      if (!events) return noEvents;
      const call = await events.startCall(w.tenantB.id, fx.assistantB.id);
      w.cleanup.add(`end B's call ${call.id}`, () => events.endCall(w.tenantB.id, call, false).then(() => undefined));
      return { value: call };
    });
    await fixture('assistantBCalls', async () => {
      if (!events) return noEvents;
      return { value: await assistantFixture(w, B, 'xtenant-b-calls') };
    });
    await fixture('callBEnded', async () => {
      if (!events || !fx.assistantBCalls) return noEvents;
      const call = await events.startCall(w.tenantB.id, fx.assistantBCalls.id);
      await events.endCall(w.tenantB.id, call, false);
      return { value: call };
    });
    await fixture('callBDone', async () => {
      if (!control) {
        const id = w.target.live?.otherCallId;
        return id ? { value: { id } } : { why: missingFixtureReason('otherCallId') };
      }
      const call = await control.startCall({ tenantId: w.tenantB.id, assistantId: fx.assistantB.id, customerNumber: fictionalNumber() });
      await control.endCall(call.id, { supervisorAnswered: false });
      // Insights land after the call ends (§4.5); wait for them with a deadline so the foreign call is
      // as "existing" as it can be. A target without the route simply answers NOT_FOUND.
      await vi
        .waitFor(
          async () => {
            const res = await B.get(`/calls/${call.id}/insights`);
            if (res.status === 404 && res.json?.error?.code !== 'NOT_FOUND') throw new Error('insights not landed yet');
          },
          { timeout: 5_000, interval: 100 },
        )
        .catch(() => undefined);
      return { value: call };
    });
    await fixture('callADeleted', async () => {
      if (!events) return noEvents;
      // A call the suite started, deleted through the event source (docs/event-trigger.md `delete-call`):
      // §7 exception 2's "deleted" case. A source that cannot delete ends the call and says why.
      const call = await events.startCall(w.tenantA.id, fx.assistantA.id);
      try {
        await events.deleteCall(w.tenantA.id, call);
      } catch (e) {
        await events.endCall(w.tenantA.id, call, false).catch(() => undefined);
        if ((e as Error).name === EVENT_UNSUPPORTED_NAME) return { why: switchReason('trigger', (e as Error).message) };
        throw e;
      }
      return { value: call.id };
    });
  }

  /** Tenant B's number, A's deleted number and B's conversation: the control API's, or the operator's variables. */
  async function makeControlled(w: World): Promise<void> {
    const control = w.control;
    const noControl = (what: string) => ({ why: switchReason('control', `not applicable to this target: ${what}`) });
    await fixture('numberB', async () => {
      if (!control) {
        const n = w.target.live?.otherSmsFromNumber;
        return n ? { value: n } : { why: missingFixtureReason('otherSmsFromNumber') };
      }
      const n = await control.phoneNumber({ tenantId: w.tenantB.id, number: fictionalNumber(), smsEnabled: true });
      return { value: n.number };
    });
    await fixture('numberADeleted', async () => {
      if (!control) return noControl('deleting a number needs the control API (a live number is released, and billed, only by its owner)');
      const n = await control.phoneNumber({ tenantId: w.tenantA.id, number: fictionalNumber(), smsEnabled: true });
      await control.deletePhoneNumber(n.id);
      return { value: n.number };
    });
    await fixture('conversationB', async () => {
      if (!control) return noControl('a conversation of tenant B needs the control API');
      const c = await control.conversation({
        tenantId: w.tenantB.id,
        assistantId: fx.assistantB.id,
        channel: 'web',
        customerIdentifier: `${w.runPrefix}visitor`,
      });
      return { value: c.id };
    });
  }

  beforeAll(async () => {
    await makeFixtures(world());
  }, 60_000);
  return { world, fx };
}
