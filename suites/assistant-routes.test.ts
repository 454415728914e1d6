/**
 * §4.5 rows of the assistant resource: GET /assistants lists the tenant's assistants (id and
 * name, in any order) and POST /assistants accepts transferSettings (on a live tenant through an
 * assistant created once by the first run and found by name after that: helpers/world/fixtures.ts
 * `assistantCreatedOnce`). GET /assistants/{id} is the §2.2 response column, read after every
 * PATCH by the bounds and merge suites.
 */
import { beforeAll, describe } from 'vitest';
import { useWorld } from '../helpers/world/world';
import { clauseTest } from '../helpers/checks/clause';
import { assistantCreatedOnce, assistantFixture } from '../helpers/world/fixtures';

const world = useWorld();
let mine: { id: string; name: string };

beforeAll(async () => {
  const w = world();
  mine = await assistantFixture(w, w.as('tenantA'), 'assistant-routes');
});

describe('§4.5 GET /assistants', () => {
  clauseTest('4.5/assistants-list', "lists the tenant's assistants in data.assistants, each with id and name, in any order", async ({ verify }) => {
    const res = await world().as('tenantA').get('/assistants');
    verify.success(res, 200);
    const rows: any[] = Array.isArray(res.json?.data?.assistants) ? res.json.data.assistants : [];
    verify.reads('data.assistants is an array', res.json?.data, ['assistants'], { kind: 'type', type: 'array' }, res);
    verify.every(
      'every row carries id and name',
      rows,
      (r) => typeof r?.id === 'string' && typeof r?.name === 'string',
      'a string id and a string name on every row',
      res,
    );
    // Order is not guaranteed (§4.5): the assistant is looked up, wherever it stands.
    const row = rows.find((r) => r?.id === mine.id);
    verify.contains(
      "the tenant's assistant is among the rows",
      rows.map((r) => r?.id),
      mine.id,
      res,
    );
    verify.equal('its row carries the name it was given', row?.name, mine.name, res);
  });
});

describe('§4.5 POST /assistants', () => {
  clauseTest('4.5/assistant-create-transfer-settings', 'creates an assistant with transferSettings, and the assistant reads them back', async ({ verify }) => {
    const w = world();
    const client = w.as('tenantA');
    const sent = { amd_detection: false, use_assistant_number: true };
    // On a live tenant (no DELETE in §4) the assistant is created by the first run and found by name after that.
    const { name, created, found } = await assistantCreatedOnce(w, client, 'assistant-routes-transfer', { transferSettings: sent });
    let id: unknown = found?.json?.data?.id;
    if (created) {
      verify.success(created, undefined, 'POST /assistants with transferSettings answers 2xx');
      id = created.json?.data?.id;
      verify.reads('the answer carries the new assistant id', created.json?.data, ['id'], { kind: 'type', type: 'string' }, created);
    } else
      verify.inform(
        `${name} was created with these transferSettings by an earlier run and is found by name (a live tenant cannot delete what a POST makes)`,
        true,
        'nothing in the suite writes it, so its GET shows what that POST stored',
      );
    const read = created ? await client.get(`/assistants/${id}`) : found!;
    verify.success(read, 200);
    const stored = read.json?.data?.transferSettings ?? {};
    verify.equal(
      'GET shows the transferSettings keys sent',
      { amd_detection: stored.amd_detection, use_assistant_number: stored.use_assistant_number },
      sent,
      read,
    );
  });
});
