/**
 * §4.5 tools (instruction, textInstructions, per-assistant voice and text overrides), prompts
 * (the four named types, the type filter, the assistant prompt links of §2.2) and the catalogues
 * of §2.10 (models carry `type`, transcribers carry `language` and accept an organization key
 * without X-Tenant-Id).
 *
 * No DELETE is shown for tools or prompts, so on a live tenant they are fixtures found by a stable
 * name or created once (helpers/world/fixtures.ts `toolFixture`, `promptFixture`): tools are changed with
 * PUT and PUT back at the end, with the overrides written here cleared; prompts are never changed.
 * A second live run creates nothing. Only "textInstructions is optional" makes a tool each run, so
 * it runs on simulators only. Display names of models and
 * transcribers are never read (§9.4); entries are referenced by id.
 * Assumed names (request bodies not shown): tool `{ name, instruction, textInstructions }` with
 * steps as `{ title, description }` objects; override bodies `{ description }`; prompt
 * `{ name, type, content }`.
 *
 * Side by side (issue 43), except where tests write one fixture and read it back: those take turns
 * ({@link assistantLane}), or come last (the replayed PUT). On a live tenant fixtures are found or made
 * once by name, and two tests looking for the same one at once could both make it: the prompts that
 * several tests use are looked up once (helpers/world/fixtures.ts `fixtureOnce`), in the file's set-up,
 * and every other fixture name belongs to one hook.
 */
import { beforeAll, describe } from 'vitest';
import { useWorld } from '../helpers/world/world';
import { clauseTest, skipWith, type Verify } from '../helpers/checks/clause';
import { assistantFixture, fixtureOnce, promptFixture, toolFixture, UnfindableFixture, type ToolFixture } from '../helpers/world/fixtures';
import type { ApiResponse } from '../helpers/http/client';
import { containsString, rowsOf } from '../helpers/spec/shapes';
import { hasCapability } from '../helpers/target/target';
import { sharedLimit } from '../helpers/world/concurrency';

const world = useWorld();
let assistant: { id: string };

/**
 * The lane of the writes to the file's assistant and its tool overrides (its toolIds, the override
 * tests, the prompt links): one test at a time, so no accepted write overlaps another's read-back.
 */
const assistantLane = sharedLimit(1);

beforeAll(async () => {
  const w = world();
  // The file's fixtures side by side, each under a name of its own; the assistant's failure fails the file once all have settled.
  const [made] = await Promise.allSettled([assistantFixture(w, w.as('tenantA'), 'tools-prompts'), makePutFixture(), lookUpLivePrompts()]);
  if (made.status === 'rejected') throw made.reason;
  assistant = made.value;
});

/** Whether some property named like `description` (any case) holds '' anywhere in `value`: an empty description that was stored. */
function storesEmptyDescription(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(storesEmptyDescription);
  if (value && typeof value === 'object') {
    return Object.entries(value).some(([k, v]) => (/description/i.test(k) && v === '') || storesEmptyDescription(v));
  }
  return false;
}

const INSTRUCTION = {
  title: 'Order lookup',
  description: 'Look up an order by its number.',
  steps: [
    { title: 'Ask', description: 'Ask for the order number.' },
    { title: 'Look up', description: 'Call the tool with it.' },
  ],
};
const TEXT_INSTRUCTIONS = {
  title: 'Order lookup (text)',
  description: 'In a text thread, ask for the order number in one short message.',
  steps: [{ title: 'Ask', description: 'Ask for the order number by text.' }],
};

/** The tool as it reads back: the PUT answer, since no GET /tools/{id} is shown. */
const putTool = (id: string, body: Record<string, unknown>) => world().as('tenantA').put(`/tools/${id}`, body);

/**
 * The tool the instruction tests use, in state { INSTRUCTION, TEXT_INSTRUCTIONS }: new on a
 * simulator (its POST answer), found or created once on a live tenant (its PUT or POST answer).
 * A refused fixture fails the shape test, which proves the same clause, and skips the others.
 */
let putFixture: ToolFixture | undefined;
let putFixtureError: Error | undefined;
/** Makes {@link putFixture} (in the file's set-up), keeping its error for the tests instead of throwing. */
async function makePutFixture(): Promise<void> {
  try {
    putFixture = await toolFixture(world(), world().as('tenantA'), 'tool-put', { instruction: INSTRUCTION, textInstructions: TEXT_INSTRUCTIONS });
  } catch (e) {
    putFixtureError = e as Error;
  }
}

describe.concurrent('§4.5 tools: instruction and textInstructions', () => {
  clauseTest(
    '4.5/tool-instruction-shape',
    'a tool carries instruction and textInstructions of the shape title, description, steps (the POST, or on a live tenant the PUT, answer)',
    async ({ verify }) => {
      if (putFixtureError) throw putFixtureError;
      const data = putFixture!.data;
      verify.schema('data is a tool with instruction and textInstructions', 'tool', data);
      for (const [k, sent] of [
        ['instruction', INSTRUCTION],
        ['textInstructions', TEXT_INSTRUCTIONS],
      ] as const) {
        for (const f of ['title', 'description'] as const) verify.equal(`${k}.${f} reads back as sent`, data?.[k]?.[f], sent[f]);
        verify.equal(`${k}.steps keeps its ${sent.steps.length} step(s)`, data?.[k]?.steps?.length, sent.steps.length);
      }
    },
  );

  clauseTest(
    '4.5/tool-instruction-shape',
    'textInstructions is optional',
    async ({ verify }) => {
      const res = await world()
        .as('tenantA')
        .post('/tools', { name: `${world().runPrefix}tool-voice-only`, instruction: INSTRUCTION });
      verify.success(res, undefined, 'POST /tools without textInstructions answers 2xx');
      verify.schema('data is a tool', 'tool', res.json?.data, res);
    },
    { requires: ['control'] },
  );

  clauseTest(
    ['4.5/tool-put-keeps-text-instructions', '4.5/tool-put-null-removes-text-instructions'],
    'PUT without textInstructions keeps it; PUT with null removes it',
    async (ctx) => {
      if (!putFixture) skipWith(ctx, `precondition failed: the fixture tool could not be made (${putFixtureError?.message.slice(0, 200)})`);
      const tool = { id: putFixture.id, name: putFixture.body.name, textInstructions: putFixture.data?.textInstructions };
      const newInstruction = { ...INSTRUCTION, description: 'Look up an order by number or e-mail.' };
      const kept = await putTool(tool.id, { name: tool.name, instruction: newInstruction });
      ctx.verify.on('4.5/tool-put-keeps-text-instructions').success(kept, undefined, 'PUT /tools/{id} without textInstructions answers 2xx');
      ctx.verify.on('4.5/tool-put-keeps-text-instructions').schema('data is a tool', 'tool', kept.json?.data, kept);
      ctx.verify
        .on('4.5/tool-put-keeps-text-instructions')
        .equal('the PUT applied the new instruction', kept.json.data.instruction?.description, newInstruction.description, kept);
      ctx.verify
        .on('4.5/tool-put-keeps-text-instructions')
        .equal('textInstructions is kept as stored', kept.json.data.textInstructions, tool.textInstructions, kept);
      const removed = await putTool(tool.id, { name: tool.name, instruction: newInstruction, textInstructions: null });
      ctx.verify.on('4.5/tool-put-null-removes-text-instructions').success(removed, undefined, 'PUT /tools/{id} with textInstructions null answers 2xx');
      ctx.verify
        .on('4.5/tool-put-null-removes-text-instructions')
        .reads(
          'textInstructions is removed (null or absent)',
          removed.json?.data,
          ['textInstructions'],
          { kind: 'cleared', readings: ['null', 'absent'] },
          removed,
        );
    },
  );
});

/**
 * `steps` as far as the sent steps name fields: each step cut to the keys its sent counterpart has
 * (a step's inner shape is not shown, §4.5: a field a server adds, an id, is left out; one it dropped
 * reads undefined in both answers alike). Every step of the answer is kept, so appended ones show.
 */
function sentStepFields(steps: unknown, sent: readonly Record<string, unknown>[]): unknown {
  if (!Array.isArray(steps)) return steps;
  return steps.map((s, i) => {
    const keys = Object.keys(sent[Math.min(i, sent.length - 1)] ?? {});
    return s && typeof s === 'object' ? Object.fromEntries(keys.map((k) => [k, (s as Record<string, unknown>)[k]])) : s;
  });
}

describe.concurrent('§4.5 per-assistant tool overrides', () => {
  let tool: any;
  let why = '';
  const base = () => `/assistants/${assistant.id}/tools/${tool.id}`;
  const readText = () => world().as('tenantA').get(`${base()}/text-override`);

  // The tool is linked to the file's assistant (whose fixture restores toolIds); its restore clears
  // the overrides these tests write on that assistant.
  beforeAll(async () => {
    const c = world().as('tenantA');
    try {
      const made = await toolFixture(world(), c, 'tool-overrides', { instruction: INSTRUCTION, textInstructions: TEXT_INSTRUCTIONS }, () => [assistant.id]);
      tool = { ...made.data, id: made.id };
      await assistantLane(() => c.patch(`/assistants/${assistant.id}`, { toolIds: [made.id] }));
    } catch (e) {
      why = (e as Error).message.slice(0, 200);
    }
  });

  /** Skips when the fixture tool could not be made. */
  function needTool(ctx: any) {
    if (!tool?.id) skipWith(ctx, `precondition failed: the fixture tool could not be made (${why})`);
  }

  /** PUTs `description` to the tool's override route `route` (on the file's assistant) and checks the answer is 2xx under `verify`. */
  async function putDescription(verify: Verify, route: 'description-override' | 'text-description-override', description: string, words: string) {
    verify.success(await world().as('tenantA').put(`${base()}/${route}`, { description }), undefined, words);
  }

  clauseTest(
    ['4.5/tool-overrides-independent', '4.5/tool-empty-description-restores'],
    'voice and text description overrides are independent; an empty description restores the default',
    async (ctx) =>
      assistantLane(async () => {
        needTool(ctx);
        const text = 'Text override: ask for the order number in one message.';
        const voice = 'Voice override: ask for the order number slowly.';
        const independent = ctx.verify.on('4.5/tool-overrides-independent');
        const restores = ctx.verify.on('4.5/tool-empty-description-restores');
        await putDescription(independent, 'text-description-override', text, 'PUT …/text-description-override answers 2xx');
        let read = await readText();
        independent.success(read, 200, 'GET …/text-override answers 200');
        independent.contains('the text override carries the text description', read.json?.data, text, read);
        await putDescription(independent, 'description-override', voice, 'PUT …/description-override (voice) answers 2xx');
        read = await readText();
        // The text-override read may also show the voice side (its shape is not shown): only the text part is asserted.
        independent.contains('writing the voice override leaves the text override as it was', read.json?.data, text, read);
        await putDescription(restores, 'description-override', '', 'PUT …/description-override with an empty description answers 2xx');
        read = await readText();
        independent.contains('clearing the voice override leaves the text override', read.json?.data, text, read);
        await putDescription(restores, 'text-description-override', '', 'PUT …/text-description-override with an empty description answers 2xx');
        read = await readText();
        restores.lacks('after an empty description the custom text description is gone', read.json?.data, text, read);
        // The defaults are non-empty, so a description that reads back as '' means the empty text was stored, not the default restored.
        restores.that('the empty description is not stored in place of the default', !storesEmptyDescription(read.json?.data), {
          expected: 'no description field holding an empty string (the default, null or no override)',
          actual: read.json?.data,
          res: read,
        });
      }),
  );

  clauseTest('4.5/tool-overrides-independent', 'a step text override is written, read back and deleted', async (ctx) =>
    assistantLane(async () => {
      needTool(ctx);
      const stepId = tool.textInstructions?.steps?.[0]?.id ?? tool.instruction?.steps?.[0]?.id;
      if (typeof stepId !== 'string') skipWith(ctx, 'precondition failed: the tool answer carries no step id (step shape not shown)');
      const c = world().as('tenantA');
      const stepText = 'Step override: ask for the order number by text.';
      ctx.verify.success(
        await c.put(`${base()}/steps/${stepId}/text-override`, { description: stepText }),
        undefined,
        'PUT …/steps/{stepId}/text-override answers 2xx',
      );
      let read = await readText();
      ctx.verify.contains('the text override carries the step override', read.json?.data, stepText, read);
      ctx.verify.success(await c.delete(`${base()}/steps/${stepId}/text-override`), undefined, 'DELETE …/steps/{stepId}/text-override answers 2xx');
      read = await readText();
      ctx.verify.lacks('the step override is gone', read.json?.data, stepText, read);
    }),
  );

  clauseTest('4.5/tool-overrides-independent', 'DELETE …/text-override removes the text override', async (ctx) =>
    assistantLane(async () => {
      needTool(ctx);
      const c = world().as('tenantA');
      const text = 'Text override to delete.';
      ctx.verify.success(await c.put(`${base()}/text-description-override`, { description: text }), undefined, 'PUT …/text-description-override answers 2xx');
      ctx.verify.success(await c.delete(`${base()}/text-override`), undefined, 'DELETE …/text-override answers 2xx');
      const read = await readText();
      ctx.verify.that(
        'after DELETE the text override is gone (404 or without the text)',
        read.status === 404 || (read.status === 200 && !containsString(read.json?.data, text)),
        {
          expected: `404, or 200 without ${JSON.stringify(text)}`,
          actual: `${read.status}`,
          res: read,
        },
      );
    }),
  );
});

const PROMPT_TYPES = ['chat', 'whisper_summary', 'voice_persona', 'ivr'] as const;

/**
 * Tenant A's prompt of `type` for `purpose` (helpers/world/fixtures.ts `promptFixture`): new for each
 * call on a simulator; on a live tenant found by name or made once for the whole file (`fixtureOnce`),
 * since several tests use each. Answers the prompt; throws what `promptFixture` throws.
 */
const promptOf = (purpose: string, type: string): Promise<any> =>
  fixtureOnce(world(), `prompt ${type} ${purpose} of tenant A`, () =>
    promptFixture(world(), world().as('tenantA'), purpose, type, `You are a ${type} prompt.`),
  );

/** On a live tenant, looks up the prompt of each type (purpose `prompt-<type>`) side by side, for the tests, and waits until every look-up has settled. */
async function lookUpLivePrompts(): Promise<void> {
  if (hasCapability('control')) return;
  await Promise.allSettled(PROMPT_TYPES.map((type) => promptOf(`prompt-${type}`, type)));
}

/**
 * A prompt of `type` for one purpose ({@link promptOf}). A refused POST fails the calling test; a live list that
 * shows no names skips it (nothing is created that could not be found again).
 */
async function prompt(ctx: Parameters<typeof skipWith>[0], purpose: string, type: string): Promise<any> {
  try {
    return await promptOf(purpose, type);
  } catch (e) {
    if (e instanceof UnfindableFixture) skipWith(ctx, e.message);
    throw e;
  }
}

describe.concurrent('§4.5 prompts', () => {
  clauseTest('4.5/prompt-types', 'POST /prompts accepts each named type and answers it (on a live tenant: the prompts made once, as listed)', async (ctx) => {
    for (const type of PROMPT_TYPES) {
      const data = await prompt(ctx, `prompt-${type}`, type);
      ctx.verify.schema('data is a prompt', 'prompt', data);
      ctx.verify.equal('data.type is the type sent', data?.type, type);
    }
  });

  for (const type of PROMPT_TYPES) {
    clauseTest('4.5/prompt-filter-by-type', `GET /prompts?type=${type} answers only prompts of that type`, async (ctx) => {
      const { verify } = ctx;
      const w = world();
      const mine: string | undefined = (await prompt(ctx, `prompt-${type}`, type))?.id;
      const list = await w.as('tenantA').get('/prompts', { query: { type } });
      verify.success(list, 200, `GET /prompts?type=${type} answers 200`);
      const rows = rowsOf(list.json?.data);
      for (const r of rows) verify.schema('each row is a prompt', 'prompt', r, list);
      verify.every(`every row has type ${type}`, rows, (r) => r?.type === type, `type ${type} on every row`, list);
      if (mine)
        verify.contains(
          'the prompt just made is listed',
          rows.map((r) => r?.id),
          mine,
          list,
        );
    });
  }

  clauseTest('2.2/prompt-link-fields', 'chatPromptId, whisperSummaryPromptId and voicePersonaPromptId take a prompt id and null clears them', async (ctx) => {
    const fields = { chatPromptId: 'chat', whisperSummaryPromptId: 'whisper_summary', voicePersonaPromptId: 'voice_persona' } as const;
    const ids: Record<string, string> = {};
    for (const [field, type] of Object.entries(fields)) ids[field] = (await prompt(ctx, `prompt-${type}`, type)).id;
    // The assistant's writes and read-backs in its lane; the prompts are made before.
    await assistantLane(async () => {
      const { verify } = ctx;
      const c = world().as('tenantA');
      const set = await c.patch(`/assistants/${assistant.id}`, ids);
      verify.success(set, 200, 'PATCH with the three prompt ids answers 200');
      const read = await c.get(`/assistants/${assistant.id}`);
      for (const [field, id] of Object.entries(ids)) verify.equal(`${field} reads back as the prompt id`, read.json?.data?.[field], id, read);
      for (const field of Object.keys(fields)) {
        const cleared = await c.patch(`/assistants/${assistant.id}`, { [field]: null });
        verify.success(cleared, 200, `PATCH ${field}: null answers 200`);
        const after = await c.get(`/assistants/${assistant.id}`);
        verify.reads(`${field} is cleared (null or absent)`, after.json?.data, [field], { kind: 'cleared', readings: ['null', 'absent'] }, after);
        const rest = Object.keys(fields).filter((f) => f !== field && Object.keys(fields).indexOf(f) > Object.keys(fields).indexOf(field));
        for (const f of rest) verify.equal(`clearing ${field} leaves ${f}`, after.json?.data?.[f], ids[f], after);
      }
    });
  });
});

describe.concurrent('§2.10 catalogues', () => {
  clauseTest(['2.10/model-type', '4.5/models-catalogue'], 'every GET /models entry carries id and type chat or realtime', async ({ verify }) => {
    const res = await world().as('tenantA').get('/models');
    verify.on('4.5/models-catalogue').success(res, 200, 'GET /models answers 200');
    const rows = rowsOf(res.json?.data);
    verify.on('4.5/models-catalogue').inform('the model catalogue is not empty', rows.length > 0, `${rows.length} entries`);
    for (const m of rows) verify.schema('a model entry carries id and type', 'model', m, res);
  });

  /**
   * Checks GET /transcribers (list) and one GET /transcribers/{id} with the given principal: the
   * answers on `verify`'s clauses, the entries' shape on 2.10/transcriber-language as well.
   */
  async function transcribers(verify: Verify, principal: 'org' | 'orgA' | 'tenantA'): Promise<ApiResponse> {
    const c = world().as(principal);
    const shape = verify.on(['2.10/transcriber-language', ...verify.clauses]);
    const list = await c.get('/transcribers');
    verify.success(list, 200, `GET /transcribers with ${principal === 'org' ? 'the organization key alone' : principal} answers 200`);
    const rows = rowsOf(list.json?.data);
    for (const t of rows) shape.schema('a transcriber carries id and language', 'transcriber', t, list);
    if (rows[0]?.id) {
      const one = await c.get(`/transcribers/${rows[0].id}`);
      verify.success(one, 200, 'GET /transcribers/{id} answers 200');
      shape.schema('the transcriber carries id and language', 'transcriber', one.json?.data, one);
      verify.equal('GET /transcribers/{id} answers that transcriber', one.json?.data?.id, rows[0].id, one);
    }
    return list;
  }

  clauseTest(
    ['4.5/transcribers-org-key', '2.10/transcriber-language'],
    'GET /transcribers and /transcribers/{id} accept an organization key without X-Tenant-Id; entries carry language',
    async ({ verify }) => {
      await transcribers(verify.on('4.5/transcribers-org-key'), 'org');
    },
  );

  clauseTest('2.10/transcriber-language', 'transcribers read with a tenant key carry language', async ({ verify }) => {
    await transcribers(verify, 'tenantA');
  });
});

// After the blocks above, on every target: it PUTs the tool-put fixture, whose stored textInstructions the
// PUT test above compares with what the fixture was made with.
describe.sequential('§8 a replayed PUT /tools/{id}', () => {
  clauseTest('8/put-replay-converges', 'PUT /tools/{id} sent twice converges: instruction and textInstructions replaced, not appended to', async (ctx) => {
    if (!putFixture) skipWith(ctx, `precondition failed: the fixture tool could not be made (${putFixtureError?.message.slice(0, 200)})`);
    const body = { name: putFixture.body.name, instruction: INSTRUCTION, textInstructions: TEXT_INSTRUCTIONS };
    const answers = [await putTool(putFixture.id, body), await putTool(putFixture.id, body)];
    answers.forEach((res, n) => {
      const which = n === 0 ? 'first' : 'replayed';
      ctx.verify.success(res, undefined, `the ${which} PUT /tools/{id} answers 2xx`);
      for (const k of ['instruction', 'textInstructions'] as const) {
        const got = res.json?.data?.[k];
        for (const f of ['title', 'description'] as const) ctx.verify.soft.equal(`after the ${which} PUT, ${k}.${f} reads as sent`, got?.[f], body[k][f], res);
        ctx.verify.soft.equal(
          `after the ${which} PUT, ${k}.steps holds the ${body[k].steps.length} step(s) sent`,
          got?.steps?.length,
          body[k].steps.length,
          res,
        );
      }
    });
    const [first, replayed] = answers.map((r) => r.json?.data);
    for (const k of ['instruction', 'textInstructions'] as const) {
      ctx.verify.equal(
        `the replayed PUT leaves ${k}.steps as the first left them (the sent fields of each step)`,
        sentStepFields(replayed?.[k]?.steps, body[k].steps),
        sentStepFields(first?.[k]?.steps, body[k].steps),
        answers[1],
      );
    }
  });
});
