/**
 * Faults of `GET /assistants/{id}/tasks/overrides` (§4.2, §2.8): each overrides the seam
 * `taskOverridesOf` of routes/assistants.ts. Probes: simulator/test/faults/taskoverrides.test.ts.
 */
import { taskOverridesOf } from '../routes/assistants.ts';
import { override } from '../seam.ts';
import { defineFaults } from './define.ts';

/** The task override faults. */
export const TASKOVERRIDES_FAULTS = defineFaults([
  {
    name: 'taskoverrides.unknown-assistant-empty',
    clauses: ['4.2/task-overrides-unknown-assistant'],
    description: 'GET /assistants/{id}/tasks/overrides of an assistant that never existed answers 200 with [] instead of 404.',
    override: override(taskOverridesOf, (next) => (state, tenantId, id) => (state.assistants.has(id) ? next(state, tenantId, id) : [])),
  },
  {
    name: 'taskoverrides.null-dropped',
    clauses: ['2.8/task-override-shape'],
    description: 'GET /assistants/{id}/tasks/overrides lists an override whose instructionOverride is null without that key.',
    override: override(taskOverridesOf, (next) => (state, tenantId, id) => {
      const answer = next(state, tenantId, id);
      if (!Array.isArray(answer)) return answer;
      return answer.map((o: Record<string, unknown>) => {
        const { instructionOverride, ...rest } = o;
        return instructionOverride === null ? rest : o;
      });
    }),
  },
  {
    name: 'taskoverrides.empty-list-null',
    clauses: ['2.8/task-override-shape'],
    description: 'GET /assistants/{id}/tasks/overrides of an assistant with no override answers `data: null` (an ORM answering no rows as null), not [].',
    override: override(taskOverridesOf, (next) => (state, tenantId, id) => {
      const answer = next(state, tenantId, id);
      return Array.isArray(answer) && answer.length === 0 ? null : answer;
    }),
  },
  {
    name: 'taskoverrides.object-not-array',
    clauses: ['4.2/task-overrides-array'],
    description: 'GET /assistants/{id}/tasks/overrides answers `data: { overrides: [...] }` instead of an array.',
    override: override(taskOverridesOf, (next) => (state, tenantId, id) => ({ overrides: next(state, tenantId, id) })),
  },
]);
