/**
 * §2.8 task overrides (read-only shape) and §4.2 GET /assistants/{id}/tasks/overrides.
 * On simulators the overrides are made through the control API (POST /__control/task-overrides);
 * on a live tenant the fixture assistant's overrides are read as they are (often none).
 */
import { beforeAll, describe } from 'vitest';
import { randomUUID } from 'node:crypto';
import { useWorld } from '../helpers/world/world';
import { clauseTest } from '../helpers/checks/clause';
import { assistantFixture } from '../helpers/world/fixtures';

const world = useWorld();
let assistant: { id: string };
let empty: { id: string };

beforeAll(async () => {
  const w = world();
  assistant = await assistantFixture(w, w.as('tenantA'), 'task-overrides');
  empty = await assistantFixture(w, w.as('tenantA'), 'task-overrides-none');
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
});
