/**
 * The generative phase over every request field of PATCH /assistants/{id} (§2.2 to §2.7, §4.1):
 * values drawn from the space each field's type lives in (helpers/generate/value-space.ts) are
 * sent one PATCH each and judged by the request-field oracle (helpers/generate/oracle-table.ts):
 * accepted exactly when the oracle allows it and read back as it says; refused with the answer it
 * fixes (400 VALIDATION_ERROR) and nothing changed; and, after every accepted PATCH, every other
 * documented field as it was (§4.1 omitted-unchanged: the assistant is first given a value in
 * every field, nullable URLs and documents included, so a write that resets what it was not sent
 * shows). Each test records the value classes it tried (an informational check of the run record).
 *
 * Seeded: `CORE_API_SEED` replays a run (the seed is printed with every failure). Depth:
 * `CORE_API_VALUE_SPACE_DEPTH` values per class (default 1; a nightly run sets more).
 * On a live tenant the phase writes only to the file's own assistant fixture, one value per class,
 * and only when the request budget allows it besides the full case sets (3,500 or more).
 */
import { afterAll, beforeAll, describe } from 'vitest';
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { readEnv, readSeed } from '../helpers/base/env';
import { useWorld } from '../helpers/world/world';
import { clauseTest, skipWith, type Verify } from '../helpers/checks/clause';
import { assistantFixture } from '../helpers/world/fixtures';
import type { ApiClient, ApiResponse } from '../helpers/http/client';
import { documentedPart, WRITE_STAMPS } from '../helpers/spec/documented';
import { concretePath, judgeRow, rowName, type OracleRow } from '../helpers/generate/oracle';
import { ORACLE, oracleRow } from '../helpers/generate/oracle-table';
import type { OracleContext } from '../helpers/generate/oracle-rules';
import { classesFor, textClasses, VALUE_CLASSES_TRIED, type UrlHosts, type ValueClass } from '../helpers/generate/value-space';
import { describeActual, describeReading, getAt, readingHolds } from '../helpers/generate/paths';
import { hostResolvingTo, PUBLIC_TEST_ADDRESS, publicHost, unresolvableHost } from '../helpers/generate/hosts';
import { capabilityReason, FULL_CASE_SETS_BUDGET, hasCapability, missingFixtureReason, requestBudget, switchReason } from '../helpers/target/target';
import { fixturePool, fixturePoolSize, type FixturePool } from '../helpers/world/concurrency';
import { keepRead, readBackSlot, slotPath, type AssistantSlot } from '../helpers/world/assistant-slots';
import { render } from '../helpers/base/values';

const world = useWorld();
/** Seed of every draw in this file (CORE_API_SEED replays a run); printed with every failure. */
const BASE_SEED = readSeed('CORE_API_SEED');
const SEED = (BASE_SEED ^ 0x7a1) | 0;
/** Values drawn per class besides its edges: CORE_API_VALUE_SPACE_DEPTH, default 1. */
const perClass = (): number => readEnv('CORE_API_VALUE_SPACE_DEPTH') ?? 1;
const ROWS = ORACLE.filter((r) => r.operation === 'PATCH /assistants/{id}');
const OMITTED = '4.1/omitted-unchanged';
const UNCHANGED = '4.1/rejected-patch-changes-nothing';
const NO_5XX = '7/no-server-error-on-input';
/** Host names the URL classes use at collection time (their clause sets only; the run arranges its own). */
const PLACEHOLDER_HOSTS: UrlHosts = { public: 'vs-public.example.com', private: 'vs-private.example.com', nowhere: 'vs-nowhere.invalid' };
/** Members an item of a list needs besides the field drawn (§2.6: a term; a word and a phoneme or respelling). */
const ITEM_BASE: Record<string, Record<string, unknown>> = {
  sttKeyterms: { term: 'Conformex', language: 'en' },
  ttsPronunciations: { word: 'Conformex', phonemes: 'k ə n f ɔː m ɛ k s', respell: 'con-FOR-mex' },
};

/**
 * Values one borrow of a slot tries at most on a simulator, where a row's classes are split into
 * lanes of about this many values, each on a slot of its own, side by side (issue 43: one slot per
 * row made a chain of 157 requests, 12.6 s at 80 ms per answer). A lane starts from the populated
 * assistant like a row did. On a live tenant a row stays one lane: each lane costs a populate.
 */
const LANE_VALUES = 2;
/** How many slots (assistants) the file may hold on a simulator, as a multiple of CORE_API_CONCURRENCY: the rows in flight times their lanes. */
const SIMULATOR_SLOTS_PER_TEST = 4;

/** A row's classes in lanes: consecutive classes while their values fit `maxValues` (a larger class alone). */
function classLanes<C>(classes: C[], valuesOf: (cls: C) => number, maxValues: number): C[][] {
  const lanes: C[][] = [];
  let size = 0;
  for (const cls of classes) {
    const n = valuesOf(cls);
    if (lanes.length === 0 || size + n > maxValues) {
      lanes.push([]);
      size = 0;
    }
    lanes[lanes.length - 1].push(cls);
    size += n;
  }
  return lanes;
}

let client: ApiClient;
let slots: FixturePool<AssistantSlot>;
let hosts: UrlHosts;
let ctx: OracleContext;

/** Every top-level field given a value other than a new assistant's (§2.2), so that a write resetting what it was not sent shows. */
function populated(h: UrlHosts): Record<string, unknown> {
  return {
    firstMessage: 'Value space: populated.',
    developerPrompt: 'Answer briefly.',
    parameters: { city: 'Paris' },
    recordingEnabled: true,
    failoverNumber: '+14155550123',
    failoverMode: true,
    timezone: 'Europe/Paris',
    address: '1 Conformance Street',
    endOfCallMessage: 'Goodbye.',
    phoneNumberPassThrough: true,
    summaryPrompt: 'Summarise in one line.',
    structuredDataPrompt: 'Classify the call.',
    categories: ['billing', 'support'],
    backgroundSound: true,
    serverUrl: `https://${h.public}/value-space`,
    csatFeedback: true,
    idleMessages: ['Are you still there?'],
    transferMode: 'warm-return',
    callTimeLimitSeconds: 600,
    idleTimeoutSeconds: 20,
    idleMessageMaxSpokenCount: 3,
    transferDialTimeout: 25,
    warmWhisperDelaySeconds: 5,
    warmReturnMessage: 'Sorry, nobody picked up.',
    taskDrivenMode: true,
    transferSettings: { amd_detection: false, use_assistant_number: true },
    dictionarySettings: { sttKeyterms: [{ term: 'Conformex', language: 'en' }] },
    ivrSettings: { ivrMode: true, note: 'value space' },
    settings: { conversationConfig: { deliveryMode: 'expressive', interruptionPlan: { minDuration: 1, minWords: 2 } } },
  };
}

/** The reference fields with made-up ids: set where the target takes them (their existence is not stated, §2.2). */
function referenced(): Record<string, unknown> {
  const id = (n: number) => `7a1e0000-0000-4000-8000-00000000000${n}`;
  return {
    voiceId: id(1),
    transcriberId: id(2),
    modelId: id(3),
    phoneNumberId: id(4),
    promptId: id(5),
    chatPromptId: id(6),
    whisperSummaryPromptId: id(7),
    voicePersonaPromptId: id(8),
    toolIds: [id(9)],
    dictionaryIds: [id(0)],
  };
}

/** Gives every field of the slot's assistant its populated value (the reference fields once, where the target takes made-up ids), and reads it back. */
async function populate(slot: AssistantSlot, first: boolean): Promise<void> {
  if (first) await client.patch(slotPath(slot), referenced());
  const res = await client.patch(slotPath(slot), populated(hosts));
  if (res.status !== 200) throw new Error(`precondition: populating the assistant answered ${res.status} ${JSON.stringify(res.json?.error ?? '')}`);
  keepRead(slot, await client.get(slotPath(slot)));
}

beforeAll(async () => {
  const w = world();
  client = w.as('tenantA');
  const pub = await publicHost(w, 'value-space');
  const priv = await hostResolvingTo(w, 'value-space-private', ['10.0.0.1']);
  const nowhere = await unresolvableHost(w, 'value-space-nowhere');
  hosts = { public: pub, private: priv, nowhere };
  const known = new Map<string, string[]>([
    [pub, [PUBLIC_TEST_ADDRESS]],
    [nowhere, []],
  ]);
  if (priv) known.set(priv, ['10.0.0.1']);
  ctx = { resolve: (h) => known.get(h) };
  slots = fixturePool(
    async (i) => {
      const slot = { id: (await assistantFixture(w, client, `value-space-${i}`)).id, lastRead: undefined };
      await populate(slot, true);
      return slot;
    },
    fixturePoolSize(w.target.capabilities.control, SIMULATOR_SLOTS_PER_TEST),
    readBackSlot(client),
  );
});

afterAll(async () => {
  await slots?.close();
});

/** The body that puts `value` at the row's path: containers built, list items given their other members. */
function bodyFor(row: OracleRow, value: unknown): Record<string, unknown> {
  const build = (i: number): unknown => {
    if (i === row.path.length) return value;
    const seg = row.path[i];
    if (seg === '[]') return [{ ...ITEM_BASE[row.path[i - 1]], ...(build(i + 1) as object) }];
    return { [seg]: build(i + 1) };
  };
  return build(0) as Record<string, unknown>;
}

/** Top-level fields a PATCH of the row may move by itself: the field (and settings for the fields §2.2 merges into it), and updatedAt. */
function moves(row: OracleRow): string[] {
  return [...WRITE_STAMPS, row.path[0], row.shownAt[0]];
}

/** A drawn value in failure text: the one renderer (helpers/base/values.ts). */
const short = render;

/** One failure of a drawn value: the clauses it breaks and what happened. */
interface Miss {
  clauses: string[];
  text: string;
}

/** What happened to one value; `undefined` when the target answered as the oracle says. */
async function tryValue(slot: AssistantSlot, row: OracleRow, cls: string, drawn: unknown): Promise<{ miss?: Miss; verdict: 'accepted' | 'refused' }> {
  // Judged as it goes on the wire (JSON has no -0: it is sent as 0).
  const value: unknown = JSON.parse(JSON.stringify(drawn));
  const j = judgeRow(row, value, ctx);
  const before = (slot.lastRead ?? (await client.get(slotPath(slot)))).json?.data;
  slot.lastRead = undefined;
  const res = await client.patch(slotPath(slot), bodyFor(row, value));
  const after = await client.get(slotPath(slot));
  keepRead(slot, after);
  const miss = (clauses: string[], text: string) => ({
    clauses,
    text: `[${cls}] ${text}; the oracle: ${j.verdict} (${j.rule}); sent ${short(value)}; replay: CORE_API_SEED=${BASE_SEED}`,
  });
  if (res.status >= 500) return { verdict: 'refused', miss: miss([NO_5XX, ...j.clauses], `answered ${answer(res)}`) };
  if (res.status >= 200 && res.status < 300) {
    if (j.verdict === 'refuse') return { verdict: 'accepted', miss: miss(j.clauses, `accepted (${res.status})`) };
    const actual = getAt(after.json?.data, concretePath(row.shownAt));
    if (j.reads && !readingHolds(j.reads, actual))
      return { verdict: 'accepted', miss: miss(j.clauses, `GET shows ${describeActual(actual)}, expected ${describeReading(j.reads)}`) };
    const moved = movedFields(before, after.json?.data, moves(row));
    return { verdict: 'accepted', miss: moved.length ? miss([OMITTED], `moved fields it did not send: ${moved.join(', ')}`) : undefined };
  }
  if (j.verdict === 'accept') return { verdict: 'refused', miss: miss(j.clauses, `refused with ${answer(res)}`) };
  const want = j.refusal!;
  const stated = want.any4xx ? res.status >= 400 && res.status < 500 : res.status === want.status && res.json?.error?.code === want.code;
  if (!stated)
    return { verdict: 'refused', miss: miss(j.clauses, `refused with ${answer(res)}, not ${want.any4xx ? 'a 4xx' : `${want.status} ${want.code}`}`) };
  const moved = movedFields(before, after.json?.data, []);
  return { verdict: 'refused', miss: moved.length ? miss([UNCHANGED], `refused, but moved ${moved.join(', ')}`) : undefined };
}

function answer(res: ApiResponse): string {
  return `${res.status} ${res.json?.error?.code ?? ''}`.trim();
}

/** Documented fields (§2.2 response column) that differ between two reads, less `ignore`. */
function movedFields(before: unknown, after: unknown, ignore: readonly string[]): string[] {
  const a = documentedPart(before, 'assistant', ignore) as Record<string, unknown> | undefined;
  const b = documentedPart(after, 'assistant', ignore) as Record<string, unknown> | undefined;
  if (!a || !b || typeof a !== 'object' || typeof b !== 'object') return isDeepStrictEqual(a, b) ? [] : ['(the whole answer)'];
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])];
  return keys.filter((k) => !isDeepStrictEqual(a[k], b[k])).map((k) => `${k} ${short(a[k])} → ${short(b[k])}`);
}

/** A stable number for a string (FNV-1a), so each row and class draws from its own seeded stream. */
function hash(s: string): number {
  let h = 0x811c9dc5;
  for (const ch of s) h = Math.imul(h ^ ch.codePointAt(0)!, 0x01000193);
  return h | 0;
}

function draw(row: OracleRow, cls: ValueClass, seed = SEED, runs = perClass()): unknown[] {
  return [...(cls.edges ?? []), ...fc.sample(cls.arb, { seed: seed ^ hash(`${rowName(row)}|${cls.name}`), numRuns: runs })];
}

/**
 * Values the declared clauses are computed from: each class's edges and a sample of a fixed seed,
 * so that a test's name (which carries its clauses) is the same in every run whatever
 * CORE_API_SEED draws: the mutation run selects tests by the names of its baseline run.
 */
const declarationSample = (row: OracleRow, cls: ValueClass): unknown[] => draw(row, cls, 0x7a1, 8);

/** Every clause a row's judgements may cite over its drawn values (judged with placeholder hosts), plus the ones every row checks. */
function declaredClauses(row: OracleRow): string[] {
  const placeholderCtx: OracleContext = {
    resolve: (h) => ({ [PLACEHOLDER_HOSTS.public]: [PUBLIC_TEST_ADDRESS], [PLACEHOLDER_HOSTS.private!]: ['10.0.0.1'], [PLACEHOLDER_HOSTS.nowhere!]: [] })[h],
  };
  const ids = new Set<string>();
  for (const cls of classesFor(row, PLACEHOLDER_HOSTS))
    for (const v of declarationSample(row, cls)) for (const c of judgeRow(row, JSON.parse(JSON.stringify(v)), placeholderCtx).clauses) ids.add(c);
  if (row.kind === 'url')
    for (const c of ['2.3/no-private-addresses', '2.3/no-unspecified-address', '2.3/hostname-must-resolve', '2.3/public-name-accepted']) ids.add(c);
  // The row's own clauses first: a miss citing none of the declared ones is judged on the first.
  return [...ids, OMITTED, UNCHANGED, NO_5XX];
}

/** Judges the misses of a row on the declared clauses (a miss citing none of them on the row's first). */
function report(verify: Verify, row: OracleRow, misses: Miss[], tried: string[], values: number): void {
  const declared = new Set(verify.clauses);
  const byClause = new Map<string, string[]>();
  for (const m of misses) {
    const on = m.clauses.filter((c) => declared.has(c));
    for (const c of on.length ? on : [verify.clauses[0]]) byClause.set(c, [...(byClause.get(c) ?? []), m.text]);
  }
  for (const c of verify.clauses) {
    verify.on(c).none(`${rowName(row)}: every drawn value (${values}) answered as the oracle says`, byClause.get(c) ?? [], 'none answered otherwise');
  }
  verify.inform(`${rowName(row)}: ${VALUE_CLASSES_TRIED}`, true, tried.join('; '));
}

/**
 * Request budget at or above which a live run runs the value-space phase: the full case sets'
 * budget ({@link FULL_CASE_SETS_BUDGET}) plus the phase's own, about 900 requests at depth 1
 * (measured against the embedded simulator: 874 for the 70 fields).
 */
const VALUE_SPACE_BUDGET = FULL_CASE_SETS_BUDGET + 1000;

/**
 * Why the phase does not run on this target, or undefined. On a live tenant it needs the
 * `fuzzWrites` opt-in (CORE_API_ALLOW_FUZZ_WRITES=1): it writes drawn values into the fixture's
 * settings containers and references, and a PATCH of the snapshot cannot take out a key the phase
 * added to a deep-merged container (§2.4), so the fixture is not left exactly as it was found.
 * Then the request budget must allow it.
 */
const budgetCut = (): string | undefined => {
  if (hasCapability('control')) return undefined;
  if (!hasCapability('fuzzWrites')) return capabilityReason('fuzzWrites');
  return requestBudget() >= VALUE_SPACE_BUDGET
    ? undefined
    : switchReason(
        'requestBudget',
        `request budget of a live run: the value-space phase sends about 900 requests; CORE_API_REQUEST_BUDGET=${VALUE_SPACE_BUDGET} or more runs it`,
      );
};

describe.concurrent('every request field of PATCH /assistants/{id}, over the space its type lives in', () => {
  for (const row of ROWS) {
    clauseTest(
      declaredClauses(row),
      `${rowName(row)} answers every drawn value as the oracle says`,
      async (ctxTest) => {
        const cut = budgetCut();
        if (cut) skipWith(ctxTest, cut);
        const drawn = classesFor(row, hosts).map((cls) => ({ cls, values: draw(row, cls) }));
        const lanes = classLanes(drawn, (d) => d.values.length, hasCapability('control') ? LANE_VALUES : Infinity);
        const done = await Promise.all(
          lanes.map((lane) =>
            slots.use(async (slot) => {
              // Every lane starts from the populated assistant, so an omitted field reset by any row's PATCH shows.
              await populate(slot, false);
              const out: { misses: Miss[]; tried: string[]; values: number } = { misses: [], tried: [], values: 0 };
              for (const { cls, values } of lane) {
                const counts = { accepted: 0, refused: 0 };
                for (const v of values) {
                  const one = await tryValue(slot, row, cls.name, v);
                  counts[one.verdict] += 1;
                  out.values += 1;
                  if (one.miss) out.misses.push(one.miss);
                }
                out.tried.push(`${cls.name}: ${counts.accepted + counts.refused} (${counts.accepted} accepted, ${counts.refused} refused)`);
              }
              return out;
            }),
          ),
        );
        const misses = done.flatMap((d) => d.misses);
        if (misses.length) console.error(`[value-space.test.ts] ${rowName(row)}: replay with CORE_API_SEED=${BASE_SEED}`);
        report(
          ctxTest.verify,
          row,
          misses,
          done.flatMap((d) => d.tried),
          done.reduce((n, d) => n + d.values, 0),
        );
      },
      { timeout: 60_000 },
    );
  }
});

/** §4.4 POST /sms `message` over the text space (lengths around 1,600 in both readings of a character), judged by the oracle's row. */
describe('POST /sms message, over the space of texts', () => {
  const row = oracleRow('POST /sms', 'message');
  clauseTest(
    declaredSmsClauses(row),
    `${rowName(row)} answers every drawn value as the oracle says`,
    async (ctxTest) => {
      const w = world();
      let from = w.target.live?.smsFromNumber;
      const to = w.target.live?.otherSmsFromNumber ?? from ?? '+15005550006';
      if (w.control) from = (await w.control.phoneNumber({ tenantId: w.tenantA.id, number: '+14155550177', smsEnabled: true })).number;
      if (!from) skipWith(ctxTest, missingFixtureReason('smsFromNumber'));
      const misses: Miss[] = [];
      const tried: string[] = [];
      let values = 0;
      for (const cls of textClasses(row.max)) {
        const counts = { accepted: 0, refused: 0 };
        for (const drawn of draw(row, cls)) {
          const value: unknown = JSON.parse(JSON.stringify(drawn));
          const j = judgeRow(row, value);
          const res = await client.post('/sms', { fromNumber: from, toNumber: to, message: value });
          values += 1;
          const ok = res.status >= 200 && res.status < 300;
          counts[ok ? 'accepted' : 'refused'] += 1;
          const want = j.refusal;
          const wrong =
            (ok && j.verdict === 'refuse') ||
            (!ok && j.verdict === 'accept') ||
            (ok && typeof res.json?.data?.messageSid !== 'string') ||
            (!ok && want !== undefined && (res.status !== want.status || res.json?.error?.code !== want.code));
          if (wrong)
            misses.push({
              clauses: j.clauses,
              text: `[${cls.name}] answered ${answer(res)}; the oracle: ${j.verdict} (${j.rule}); sent ${short(value)}; replay: CORE_API_SEED=${BASE_SEED}`,
            });
        }
        tried.push(`${cls.name}: ${counts.accepted + counts.refused} (${counts.accepted} accepted, ${counts.refused} refused)`);
      }
      report(ctxTest.verify, row, misses, tried, values);
    },
    { requires: ['sms'], timeout: 60_000 },
  );
});

/** The clauses the SMS row may cite, plus the one a 5xx breaks. */
function declaredSmsClauses(row: OracleRow): string[] {
  const ids = new Set<string>();
  for (const cls of textClasses(row.max))
    for (const v of declarationSample(row, cls)) for (const c of judgeRow(row, JSON.parse(JSON.stringify(v))).clauses) ids.add(c);
  return [...ids, NO_5XX];
}
