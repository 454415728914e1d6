/**
 * §2.2-§2.7, §4.1, §8: how a PATCH /assistants/{id} combines with what is stored. Each merge or
 * replace rule is its own test and sets up its own starting state. Where the spec leaves the GET
 * reading of a cleared document open (null, {} or no key), every reading is accepted
 * (spec/clauses/assistant.json, `ambiguity`).
 *
 * Tools (`PUT /tools/{id}` keeps or removes textInstructions, §4.5) are left to the tools surface
 * suite: a tool fixture needs the tools request shape, which §4.5 does not show.
 */
import { documented, fields, WRITE_STAMPS } from '../helpers/spec/documented';
import { afterAll, beforeAll, describe } from 'vitest';
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { useWorld } from '../helpers/world/world';
import { clauseTest, skipWith, type Verify, type ClauseContext, type ClauseTestOptions } from '../helpers/checks/clause';
import { assistantFixture } from '../helpers/world/fixtures';
import { fixturePool, fixturePoolSize, type FixturePool } from '../helpers/world/concurrency';
import type { ApiClient, ApiResponse } from '../helpers/http/client';
import { ABSENT, describeActual, getAt, readingHolds, type ClearedReading, type PathSegment, type Reading } from '../helpers/generate/paths';

const world = useWorld();
let client: ApiClient;
let id: string;
let neverSetId: string;

/**
 * Assistants for the merge sequences: each test holds one for its whole sequence, so tests of one
 * block run concurrently; up to CORE_API_CONCURRENCY of them on a simulator, on a live tenant only
 * the file's own assistant (no further assistants are made there: the tests then run one after the other).
 */
let pool: FixturePool<{ id: string }>;
/** The assistant the running test holds. */
const held = new AsyncLocalStorage<string>();

beforeAll(async () => {
  const w = world();
  client = w.as('tenantA');
  id = (await assistantFixture(w, client, 'merge-semantics')).id;
  neverSetId = (await assistantFixture(w, client, 'merge-never-set')).id;
  pool = fixturePool(
    async (i) => ({ id: i === 0 ? id : (await assistantFixture(w, client, `merge-semantics-${i}`)).id }),
    fixturePoolSize(w.target.capabilities.control),
  );
});
afterAll(async () => {
  await pool?.close();
});

/** The assistant the running test writes: the one it holds from the pool (the file's own outside a held test). */
const mine = (): string => held.getStore() ?? id;

/** A {@link clauseTest} whose merge sequence runs on an assistant of the pool, held for the whole test. */
function heldTest(
  clauses: Parameters<typeof clauseTest>[0],
  requirement: string,
  fn: (ctx: ClauseContext) => Promise<void> | void,
  opts?: ClauseTestOptions,
): void {
  clauseTest(clauses, requirement, (ctx) => pool.use(async (a) => held.run(a.id, () => fn(ctx))), opts);
}

const CLEARED: ClearedReading[] = ['null', 'absent', 'empty-object'];

/** PATCH of the running test's assistant that must answer 200; returns the answer. */
async function patchOk(verify: Verify, body: Record<string, unknown>, what = 'the PATCH'): Promise<ApiResponse> {
  const res = await client.patch(`/assistants/${mine()}`, body);
  verify.success(res, 200, `${what} (${JSON.stringify(body).slice(0, 160)}) is accepted`);
  return res;
}

/** GET of the running test's assistant (or `assistant`); returns `data`. */
async function read(verify: Verify, assistant = mine()): Promise<{ data: any; res: ApiResponse }> {
  const res = await client.get(`/assistants/${assistant}`);
  verify.success(res, 200, 'GET /assistants/{id} answers 200');
  return { data: res.json?.data, res };
}

/** "<what>: GET shows <path> cleared" (one of `readings`), through the engine's named reading. */
function checkCleared(verify: Verify, what: string, data: any, path: PathSegment[], res: ApiResponse, readings = CLEARED): void {
  verify.reads(`${what}: GET shows ${path.join('.')} cleared`, data, path, { kind: 'cleared', readings }, res);
}

/** "<what>: GET shows <path> = <expected>", through the engine's named reading. */
function checkAt(verify: Verify, what: string, data: any, path: PathSegment[], expected: unknown, res: ApiResponse): void {
  verify.reads(`${what}: GET shows ${path.join('.')} = ${JSON.stringify(expected)}`, data, path, { kind: 'equals', value: expected }, res);
}

/**
 * The documented assistant fields (§2.2 response column) but updatedAt, which every accepted write
 * moves: what "unchanged" and "converges" compare across a write (helpers/spec/documented.ts). Across a
 * refused write nothing may move: `documented('assistant')`.
 */
const ACROSS_WRITES = documented('assistant', WRITE_STAMPS);

describe.concurrent('§4.1 omitted fields stay unchanged', () => {
  const RICH = {
    firstMessage: 'Merge semantics: before',
    developerPrompt: 'Be brief.',
    transferMode: 'warm-return',
    idleTimeoutSeconds: 12,
    callTimeLimitSeconds: 600,
    idleMessageMaxSpokenCount: 2,
    categories: ['sales', 'support'],
    idleMessages: ['Still there?'],
    address: '1 Merge Lane',
    backgroundSound: false,
    transferSettings: { amd_detection: false, use_assistant_number: true },
    ivrSettings: { ivrMode: true, conformanceNote: 'kept' },
    dictionarySettings: { sttKeyterms: [{ term: 'Mergeo', language: 'fr' }] },
    transferDialTimeout: 20,
    warmReturnMessage: 'Back with you.',
  };
  const SINGLES: Record<string, unknown>[] = [
    { firstMessage: 'Merge semantics: after' },
    { idleMessageMaxSpokenCount: 5 },
    { backgroundSound: true },
    { transferMode: 'smart-summary' },
  ];
  for (const single of SINGLES) {
    const [field] = Object.keys(single);
    heldTest('4.1/omitted-unchanged', `a PATCH of ${field} alone leaves every other field as it was, field by field`, async ({ verify }) => {
      await patchOk(verify, RICH, 'setting up a varied state');
      const before = await read(verify);
      await patchOk(verify, single);
      const after = await read(verify);
      // Documented fields only: a server may keep undocumented ones that change on every write (§9.4).
      verify.unchanged(
        `every documented field other than ${field} (updatedAt aside) is unchanged`,
        before.data,
        after.data,
        documented('assistant', [...WRITE_STAMPS, field]),
        after.res,
      );
    });
  }
});

describe.concurrent('§2.2 id sets are replaced', () => {
  /** Sends made-up ids, checked on the test's clause; skips when the target refuses them (whether they must exist is not stated). */
  async function setIds(ctx: ClauseContext, field: 'toolIds' | 'dictionaryIds', ids: string[]): Promise<void> {
    const res = await client.patch(`/assistants/${mine()}`, { [field]: ids });
    if (ids.length && (res.status === 400 || res.status === 404)) {
      skipWith(
        ctx,
        `the target refuses ${field} that name no existing resource (${res.status} ${res.json?.error?.code ?? ''}); whether they must exist is not stated (§2.2), and this suite creates no ${field === 'toolIds' ? 'tools' : 'dictionaries'}`,
      );
    }
    ctx.verify.success(res, 200, `PATCH ${field} ${JSON.stringify(ids)} is accepted`);
  }

  heldTest('2.2/tool-ids-replace-set', 'toolIds replaces the stored set instead of adding to it', async (ctx) => {
    const [a, b, c] = [randomUUID(), randomUUID(), randomUUID()];
    await setIds(ctx, 'toolIds', [a, b]);
    const first = await read(ctx.verify);
    ctx.verify.equal('GET shows the two tool ids (as a set)', [...(first.data?.toolIds ?? [])].sort(), [a, b].sort(), first.res);
    await setIds(ctx, 'toolIds', [c]);
    const second = await read(ctx.verify);
    ctx.verify.equal('GET shows only the new tool id', second.data?.toolIds, [c], second.res);
  });

  heldTest('2.2/tool-ids-replace-set', 'toolIds [] leaves no tool linked', async (ctx) => {
    await setIds(ctx, 'toolIds', [randomUUID(), randomUUID()]);
    await setIds(ctx, 'toolIds', []);
    const { data, res } = await read(ctx.verify);
    ctx.verify.reads('GET shows toolIds empty ([] or null)', data, ['toolIds'], { kind: 'cleared', readings: ['empty-array', 'null'] }, res);
  });

  heldTest('2.2/dictionary-ids-replace-set', 'dictionaryIds replaces the stored set, in the order sent', async (ctx) => {
    const [a, b, c] = [randomUUID(), randomUUID(), randomUUID()];
    await setIds(ctx, 'dictionaryIds', [a, b]);
    const first = await read(ctx.verify);
    if (first.data?.dictionaryIds === undefined) skipWith(ctx, 'the target does not return the optional dictionaryIds (§2.2 response column: optional)');
    ctx.verify.equal('GET shows the two dictionary ids in precedence order', first.data.dictionaryIds, [a, b], first.res);
    await setIds(ctx, 'dictionaryIds', [c, a]);
    const second = await read(ctx.verify);
    ctx.verify.equal('GET shows exactly the new list', second.data?.dictionaryIds, [c, a], second.res);
  });

  heldTest('2.2/dictionary-ids-empty-unlinks', 'dictionaryIds [] unlinks every dictionary', async (ctx) => {
    await setIds(ctx, 'dictionaryIds', [randomUUID()]);
    await setIds(ctx, 'dictionaryIds', []);
    const { data, res } = await read(ctx.verify);
    ctx.verify.reads(
      'GET shows dictionaryIds [] (or omits the optional field)',
      data,
      ['dictionaryIds'],
      { kind: 'cleared', readings: ['empty-array', 'absent'] },
      res,
    );
  });
});

describe.concurrent('§2.5 transferSettings', () => {
  heldTest(['2.5/deep-merge', '2.5/get-returns-object'], 'sending one key leaves the other as stored', async ({ verify }) => {
    const deep = verify.on('2.5/deep-merge');
    await patchOk(deep, { transferSettings: null });
    await patchOk(deep, { transferSettings: { amd_detection: false, use_assistant_number: true } });
    await patchOk(deep, { transferSettings: { use_assistant_number: false } });
    const one = await read(deep);
    verify
      .on('2.5/get-returns-object')
      .reads('GET returns transferSettings as an object', one.data, ['transferSettings'], { kind: 'type', type: 'object' }, one.res);
    checkAt(deep, 'after sending use_assistant_number only', one.data, ['transferSettings', 'amd_detection'], false, one.res);
    checkAt(deep, 'after sending use_assistant_number only', one.data, ['transferSettings', 'use_assistant_number'], false, one.res);
    await patchOk(deep, { transferSettings: { amd_detection: true } });
    const two = await read(deep);
    checkAt(deep, 'after sending amd_detection only', two.data, ['transferSettings', 'amd_detection'], true, two.res);
    checkAt(deep, 'after sending amd_detection only', two.data, ['transferSettings', 'use_assistant_number'], false, two.res);
  });

  heldTest('2.5/null-clears', 'null clears the whole document', async ({ verify }) => {
    await patchOk(verify, { transferSettings: { amd_detection: false, use_assistant_number: true } });
    await patchOk(verify, { transferSettings: null });
    const { data, res } = await read(verify);
    checkCleared(verify, 'after transferSettings null', data, ['transferSettings'], res);
  });

  heldTest(
    ['2.5/unknown-key-rejected', '4.1/rejected-patch-changes-nothing', '4.1/validation-error-details'],
    'an unknown key is refused, and the known key sent beside it is not stored',
    async ({ verify }) => {
      await patchOk(verify.on('2.5/unknown-key-rejected'), { transferSettings: { amd_detection: false } });
      const before = await read(verify.on('2.5/unknown-key-rejected'));
      const res = await client.patch(`/assistants/${mine()}`, { transferSettings: { amd_detection: true, ring_timeout: 30 } });
      verify
        .on('2.5/unknown-key-rejected')
        .error(res, 400, 'VALIDATION_ERROR', 'transferSettings with the unknown key ring_timeout answers 400 VALIDATION_ERROR');
      verify.on('4.1/validation-error-details').namesField(res, ['transferSettings', 'ring_timeout']);
      const after = await read(verify.on('2.5/unknown-key-rejected'));
      verify
        .on('4.1/rejected-patch-changes-nothing')
        .unchanged('every documented field of the GET after equals the GET before', before.data, after.data, documented('assistant'), after.res);
    },
  );
});

describe.concurrent('§4.1 a refused PATCH stores nothing, valid fields included', () => {
  heldTest('4.1/rejected-patch-changes-nothing', 'valid fields sent beside an invalid one are not stored', async ({ verify }) => {
    const before = await read(verify);
    const res = await client.patch(`/assistants/${mine()}`, {
      firstMessage: `${before.data?.firstMessage ?? ''} (must not be stored)`,
      categories: ['must-not-be-stored'],
      idleTimeoutSeconds: 61,
    });
    verify.error(res, 400, 'VALIDATION_ERROR', 'a PATCH with idleTimeoutSeconds 61 answers 400 VALIDATION_ERROR');
    const after = await read(verify);
    verify.unchanged(
      'every documented field of the GET after equals the GET before (firstMessage and categories not stored)',
      before.data,
      after.data,
      documented('assistant'),
      after.res,
    );
  });
});

describe.concurrent('§2.6 dictionarySettings', () => {
  heldTest('2.6/replace', 'a PATCH replaces the whole document: a sub-list not sent is gone', async ({ verify }) => {
    await patchOk(verify, {
      dictionarySettings: { sttKeyterms: [{ term: 'Alphax', language: 'fr' }], ttsPronunciations: [{ word: 'Betax', respell: 'bay-tax' }] },
    });
    await patchOk(verify, { dictionarySettings: { sttKeyterms: [{ term: 'Gammax' }] } });
    const { data, res } = await read(verify);
    const terms = getAt(data, ['dictionarySettings', 'sttKeyterms']);
    verify.that(
      'GET shows sttKeyterms as the one item sent',
      Array.isArray(terms) && terms.length === 1 && terms[0]?.term === 'Gammax' && (terms[0].language === undefined || terms[0].language === null),
      {
        expected: '[{ term: "Gammax" }] (language absent or null)',
        actual: describeActual(terms),
        res,
      },
    );
    verify.reads(
      'GET no longer shows the ttsPronunciations that were not sent',
      data,
      ['dictionarySettings', 'ttsPronunciations'],
      { kind: 'cleared', readings: ['absent', 'null', 'empty-array'] },
      res,
    );
  });

  heldTest('2.6/null-clears', 'null clears the document', async ({ verify }) => {
    await patchOk(verify, { dictionarySettings: { sttKeyterms: [{ term: 'Deltax', language: 'de' }] } });
    await patchOk(verify, { dictionarySettings: null });
    const { data, res } = await read(verify);
    checkCleared(verify, 'after dictionarySettings null', data, ['dictionarySettings'], res);
  });
});

describe.concurrent('§2.7 ivrSettings', () => {
  heldTest('2.7/deep-merge-per-key', 'keys not sent keep their stored values', async ({ verify }) => {
    await patchOk(verify, { ivrSettings: null });
    await patchOk(verify, { ivrSettings: { ivrMode: true, conformanceA: 'a' } });
    await patchOk(verify, { ivrSettings: { conformanceB: 'b' } });
    const one = await read(verify);
    for (const [k, v] of [
      ['ivrMode', true],
      ['conformanceA', 'a'],
      ['conformanceB', 'b'],
    ] as const)
      checkAt(verify, 'after sending conformanceB only', one.data, ['ivrSettings', k], v, one.res);
    await patchOk(verify, { ivrSettings: { ivrMode: false } });
    const two = await read(verify);
    for (const [k, v] of [
      ['ivrMode', false],
      ['conformanceA', 'a'],
      ['conformanceB', 'b'],
    ] as const)
      checkAt(verify, 'after sending ivrMode false only', two.data, ['ivrSettings', k], v, two.res);
  });

  heldTest('2.7/null-key-deleted', 'a key sent as null is deleted, and GET omits it', async ({ verify }) => {
    await patchOk(verify, { ivrSettings: null });
    await patchOk(verify, { ivrSettings: { ivrMode: true, conformanceA: 'a' } });
    await patchOk(verify, { ivrSettings: { conformanceA: null } });
    const { data, res } = await read(verify);
    verify.reads('GET omits ivrSettings.conformanceA (not even null)', data, ['ivrSettings', 'conformanceA'], { kind: 'cleared', readings: ['absent'] }, res);
    checkAt(verify, 'the other key stays', data, ['ivrSettings', 'ivrMode'], true, res);
  });

  heldTest('2.7/null-clears', 'the whole field null clears the document', async ({ verify }) => {
    await patchOk(verify, { ivrSettings: { ivrMode: true, conformanceA: 'a' } });
    await patchOk(verify, { ivrSettings: null });
    const { data, res } = await read(verify);
    checkCleared(verify, 'after ivrSettings null', data, ['ivrSettings'], res);
  });

  heldTest('2.7/omitted-unchanged', 'a PATCH without ivrSettings leaves it unchanged', async ({ verify }) => {
    await patchOk(verify, { ivrSettings: null });
    await patchOk(verify, { ivrSettings: { ivrMode: false, conformanceA: 'kept' } });
    const before = await read(verify);
    await patchOk(verify, { firstMessage: 'ivr untouched' });
    const after = await read(verify);
    verify.equal('ivrSettings is as before', after.data?.ivrSettings, before.data?.ivrSettings, after.res);
  });
});

describe.concurrent('§2.4 settings.conversationConfig nulls', () => {
  const CC = ['settings', 'conversationConfig'];

  /** Deleted: absent, null, or {} for a plan; a default shown instead passes only when it differs from what was stored (informational). */
  function checkDeleted(verify: Verify, data: any, path: PathSegment[], stored: unknown, res: ApiResponse, plan: boolean): void {
    const actual = getAt(data, path);
    const reading: Reading = { kind: 'cleared', readings: plan ? CLEARED : ['null', 'absent'] };
    if (!readingHolds(reading, actual) && !isDeepStrictEqual(actual, stored)) {
      verify.inform(
        `${path.join('.')} shows a value other than the one stored (a default?)`,
        true,
        `stored ${JSON.stringify(stored)}, GET shows ${describeActual(actual)}`,
      );
      return;
    }
    verify.reads(`GET no longer shows the stored ${path.join('.')}`, data, path, reading, res);
  }

  for (const [plan, value] of [
    ['interruptionPlan', { minDuration: 2, minWords: 7 }],
    ['endpointingPlan', { mode: 'dynamic' }],
  ] as const) {
    heldTest('2.4/plan-null-deletes', `null on ${plan} deletes the stored plan`, async ({ verify }) => {
      await patchOk(verify, { settings: { conversationConfig: { [plan]: value } } });
      const set = await read(verify);
      checkAt(verify, `${plan} was stored`, set.data, [...CC, plan], value, set.res);
      await patchOk(verify, { settings: { conversationConfig: { [plan]: null } } });
      const { data, res } = await read(verify);
      checkDeleted(verify, data, [...CC, plan], value, res, true);
    });
  }

  for (const [plan, field, value] of [
    ['interruptionPlan', 'minWords', 7],
    ['interruptionPlan', 'minDuration', 3],
    ['endpointingPlan', 'mode', 'fixed'],
  ] as const) {
    heldTest('2.4/plan-null-deletes', `null on ${plan}.${field} deletes the stored value`, async ({ verify }) => {
      await patchOk(verify, { settings: { conversationConfig: { [plan]: { [field]: value } } } });
      const set = await read(verify);
      checkAt(verify, `${plan}.${field} was stored`, set.data, [...CC, plan, field], value, set.res);
      await patchOk(verify, { settings: { conversationConfig: { [plan]: { [field]: null } } } });
      const { data, res } = await read(verify);
      checkDeleted(verify, data, [...CC, plan, field], value, res, false);
    });
  }

  heldTest('2.4/expressive-options-null-omits', 'null on expressiveOptions removes the key: GET omits it', async ({ verify }) => {
    await patchOk(verify, { settings: { conversationConfig: { expressiveOptions: { pace: 'slow', disfluencies: true } } } });
    const set = await read(verify);
    checkAt(verify, 'expressiveOptions was stored', set.data, [...CC, 'expressiveOptions', 'pace'], 'slow', set.res);
    await patchOk(verify, { settings: { conversationConfig: { expressiveOptions: null } } });
    const { data, res } = await read(verify);
    verify.reads(
      'GET omits settings.conversationConfig.expressiveOptions (not even null)',
      data,
      [...CC, 'expressiveOptions'],
      { kind: 'cleared', readings: ['absent'] },
      res,
    );
  });
});

describe.concurrent('§2.2 fields merged into settings', () => {
  const SETUP = {
    settings: { conversationConfig: { deliveryMode: 'expressive', interruptionPlan: { minDuration: 1, minWords: 2 } } },
  };
  const MERGED: [string, string, unknown, unknown, 'numeric' | 'equals'][] = [
    ['2.2/transfer-dial-timeout-merged-into-settings', 'transferDialTimeout', 20, 33, 'numeric'],
    ['2.2/warm-whisper-delay-merged-into-settings', 'warmWhisperDelaySeconds', 5, 12, 'numeric'],
    ['2.2/warm-return-message-merged-into-settings', 'warmReturnMessage', 'First wording.', 'Second wording.', 'equals'],
  ];
  for (const [clause, field, first, second, kind] of MERGED) {
    heldTest(clause, `${field} is stored as settings.${field} and every other settings key is kept`, async ({ verify }) => {
      // The merged fields first, then settings (a settings PATCH may replace or merge: not stated), then the one field.
      await patchOk(
        verify,
        { transferDialTimeout: 20, warmWhisperDelaySeconds: 5, warmReturnMessage: 'First wording.', [field]: first },
        'setting up the merged fields',
      );
      await patchOk(verify, SETUP, 'setting up settings.conversationConfig');
      const before = await read(verify);
      checkAt(
        verify,
        'settings.conversationConfig was stored (precondition)',
        before.data,
        ['settings', 'conversationConfig', 'deliveryMode'],
        'expressive',
        before.res,
      );
      await patchOk(verify, { [field]: second });
      const { data, res } = await read(verify);
      const reading: Reading = kind === 'numeric' ? { kind: 'numeric', value: second as number } : { kind: 'equals', value: second };
      verify.reads(`GET shows settings.${field} = ${JSON.stringify(second)}`, data, ['settings', field], reading, res);
      const was = before.data?.settings ?? {};
      const kept = fields(Object.keys(was).filter((k) => k !== field));
      verify.unchanged(`every settings key other than ${field} is kept as it was`, was, data?.settings ?? {}, kept, res);
    });
  }

  heldTest('2.2/warm-return-message-empty-restores', "warmReturnMessage '' is accepted (restores the built-in wording)", async ({ verify }) => {
    await patchOk(verify, { warmReturnMessage: 'Custom wording.' });
    await patchOk(verify, { warmReturnMessage: '' });
  });
});

describe('§2.2 defaults of an assistant never patched', () => {
  clauseTest('2.2/warm-whisper-delay-default-0', 'warmWhisperDelaySeconds is 0 (or not shown) when never set', async ({ verify }) => {
    const { data, res } = await read(verify, neverSetId);
    const v = getAt(data, ['settings', 'warmWhisperDelaySeconds']);
    verify.that('settings.warmWhisperDelaySeconds is 0 or absent', v === ABSENT || readingHolds({ kind: 'numeric', value: 0 }, v), {
      expected: '0 or absent',
      actual: describeActual(v),
      res,
    });
  });

  clauseTest('2.2/transfer-mode-default', 'transferMode reads cold-transfer when never set', async ({ verify }) => {
    const { data, res } = await read(verify, neverSetId);
    verify.equal('transferMode is cold-transfer', data?.transferMode, 'cold-transfer', res);
  });
});

describe.concurrent('§8 a replayed PATCH converges', () => {
  heldTest('8/patch-replay-converges', 'the same PATCH sent twice gives the same answer and the same GET, updatedAt aside', async ({ verify }) => {
    await patchOk(verify, { ivrSettings: null, transferSettings: null });
    const body = {
      firstMessage: 'Replayed',
      idleTimeoutSeconds: '30',
      callTimeLimitSeconds: 900,
      transferMode: 'smart-summary',
      transferSettings: { use_assistant_number: true },
      ivrSettings: { ivrMode: true, conformanceA: null, conformanceB: 'b' },
      dictionarySettings: { sttKeyterms: [{ term: 'Replayx', language: 'en-GB' }] },
      transferDialTimeout: '15',
      settings: { conversationConfig: { interruptionPlan: { minWords: 4 } } },
      categories: ['replay-a', 'replay-b'],
      idleMessages: ['Are you still there?'],
      toolIds: [],
    };
    const r1 = await patchOk(verify, body, 'first PATCH');
    const g1 = await read(verify);
    const r2 = await patchOk(verify, body, 'replayed PATCH');
    const g2 = await read(verify);
    verify.unchanged('the replayed answer equals the first in every documented field, updatedAt aside', r1.json?.data, r2.json?.data, ACROSS_WRITES, r2);
    verify.unchanged(
      'the GET after the replay equals the GET after the first PATCH in every documented field, updatedAt aside',
      g1.data,
      g2.data,
      ACROSS_WRITES,
      g2.res,
    );
  });
});

describe('§4.1 unknown assistant', () => {
  clauseTest('4.1/unknown-id-404', 'PATCH of an assistant that does not exist answers 404 RESOURCE_NOT_FOUND', async ({ verify }) => {
    const res = await client.patch(`/assistants/${randomUUID()}`, { idleTimeoutSeconds: 10 });
    verify.error(res, 404, 'RESOURCE_NOT_FOUND', 'PATCH /assistants/{unknown uuid}');
  });
});
