/**
 * §2.8 task overrides (read-only shape) and §4.2 GET /assistants/{id}/tasks/overrides.
 * On simulators the overrides are made through the control API (POST /__control/task-overrides);
 * on a live tenant the fixture assistant's overrides are read as they are (often none), and the
 * shape of §2.8 is read on an assistant of A the operator gave a task override
 * (`CORE_API_TASK_OVERRIDE_ASSISTANT_ID`; the API makes none): nothing is written to it.
 */
import { beforeAll, describe } from 'vitest';
import { randomUUID } from 'node:crypto';
import { useWorld } from '../helpers/world/world';
import { clauseTest, skipWith } from '../helpers/checks/clause';
import { missingFixtureReason } from '../helpers/target/target';
import { assistantFixture } from '../helpers/world/fixtures';

const world = useWorld();
let assistant: { id: string };
let empty: { id: string };
/** An assistant with a task override made outside the API: the operator's (live), or one the control API gave an override. */
let operators: { id: string } | undefined;

beforeAll(async () => {
  const w = world();
  assistant = await assistantFixture(w, w.as('tenantA'), 'task-overrides');
  empty = await assistantFixture(w, w.as('tenantA'), 'task-overrides-none');
  if (w.control) {
    const made = await assistantFixture(w, w.as('tenantA'), 'task-overrides-operator');
    await w.control.taskOverride({ assistantId: made.id, instructionOverride: 'Confirm the caller’s name before anything else.' });
    operators = made;
  } else if (w.target.live?.taskOverrideAssistantId) operators = { id: w.target.live.taskOverrideAssistantId };
});

const path = (id: string) => `/assistants/${id}/tasks/overrides`;

describe('§4.2 GET /assistants/{id}/tasks/overrides', () => {
  clauseTest('4.2/task-overrides-array', 'answers data as an array of task overrides', async ({ verify }) => {
    const res = await world().as('tenantA').get(path(assistant.id));
    verify.success(res, 200, 'GET …/tasks/overrides answers 200');
    verify.schema('data is an array of §2.8 task overrides', 'task-override#/$defs/list', res.json?.data, res);
  });

  clauseTest(
    '4.2/task-overrides-array',
    'an assistant without overrides answers an empty array',
    async ({ verify }) => {
      const res = await world().as('tenantA').get(path(empty.id));
      verify.success(res, 200, 'GET …/tasks/overrides answers 200');
      verify.reads('data is an array', res.json, ['data'], { kind: 'type', type: 'array' }, res);
    },
    { requires: ['control'] },
  );

  clauseTest('4.2/task-overrides-unknown-assistant', 'an unknown assistant answers 404 RESOURCE_NOT_FOUND', async ({ verify }) => {
    const res = await world().as('tenantA').get(path(randomUUID()));
    verify.error(res, 404, 'RESOURCE_NOT_FOUND', 'GET …/tasks/overrides of an assistant that never existed');
  });

  clauseTest(
    ['2.8/task-override-shape', '4.2/task-overrides-array'],
    'every override carries all five fields with their values',
    async ({ verify }) => {
      const w = world();
      const made = [
        await w.control!.taskOverride({ assistantId: assistant.id, instructionOverride: 'Ask for the order number first — “exactly”.' }),
        await w.control!.taskOverride({ assistantId: assistant.id, taskId: randomUUID(), taskgroupId: randomUUID(), instructionOverride: null }),
      ];
      const res = await w.as('tenantA').get(path(assistant.id));
      verify.on('4.2/task-overrides-array').success(res, 200, 'GET …/tasks/overrides answers 200');
      verify.on('2.8/task-override-shape').schema('data is an array of §2.8 task overrides', 'task-override#/$defs/list', res.json?.data, res);
      const rows: any[] = res.json.data;
      for (const m of made) {
        // Order is not documented (§9.4): find each override by its id.
        const row = rows.find((r) => r.overrideId === m.overrideId);
        verify.on('2.8/task-override-shape').contains(
          `override ${m.overrideId} is listed`,
          rows.map((r) => r.overrideId),
          String(m.overrideId),
          res,
        );
        for (const k of ['assistantId', 'taskId', 'taskgroupId', 'instructionOverride'] as const) {
          verify.on('2.8/task-override-shape').equal(`override ${k} reads back as created`, row[k], m[k], res);
        }
      }
      verify
        .on('2.8/task-override-shape')
        .every('every listed override belongs to this assistant', rows, (r) => r.assistantId === assistant.id, `assistantId ${assistant.id} on every row`, res);
    },
    { requires: ['control'] },
  );

  clauseTest(
    ['2.8/task-override-shape', '4.2/task-overrides-array'],
    'an assistant given a task override outside the API lists it with all five fields, each belonging to that assistant',
    async (ctx) => {
      const { verify } = ctx;
      if (!operators) skipWith(ctx, missingFixtureReason('taskOverrideAssistantId'));
      const res = await world().as('tenantA').get(path(operators.id));
      verify.on('4.2/task-overrides-array').success(res, 200, 'GET …/tasks/overrides of the assistant with a task override answers 200');
      verify.on('2.8/task-override-shape').schema('data is an array of §2.8 task overrides', 'task-override#/$defs/list', res.json?.data, res);
      const rows: any[] = Array.isArray(res.json?.data) ? res.json.data : [];
      // The operator's fixture, not the API, may have lost its override: a precondition, never a verdict.
      if (rows.length === 0)
        skipWith(ctx, `precondition failed: the assistant named by CORE_API_TASK_OVERRIDE_ASSISTANT_ID lists no task override; give it one (§2.8)`);
      verify
        .on('2.8/task-override-shape')
        .every(
          'every listed override belongs to this assistant',
          rows,
          (r) => r?.assistantId === operators!.id,
          `assistantId ${operators.id} on every row`,
          res,
        );
    },
  );
});
