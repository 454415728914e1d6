/**
 * Faults of the tools and their per-assistant overrides (§4.5), and of their isolation (§5.7): each
 * overrides one seam of routes/tools.ts. Probes: simulator/test/faults/tools.test.ts.
 */
import { ApiError, forbidden } from '../envelope.ts';
import {
  deleteStepOverride,
  foreignOverrideRefusal,
  foreignToolAnswer,
  foreignWrite,
  overrideKey,
  setTextDescription,
  stepOverridesBase,
  storedOverrideText,
  storedTextInstructions,
  unsentTextInstructions,
  writtenInstruction,
} from '../routes/tools.ts';
import { override } from '../seam.ts';
import { defineFaults } from './define.ts';

/** The tool faults. */
export const TOOLS_FAULTS = defineFaults([
  {
    name: 'tools.put-clears-text-instructions',
    clauses: ['4.5/tool-put-keeps-text-instructions'],
    description: 'PUT /tools/{id} (and /instruction) without textInstructions clears it.',
    override: override(unsentTextInstructions, (next) => (sent, stored) => (sent === 'absent' ? null : next(sent, stored))),
  },
  {
    name: 'tools.null-keeps-text-instructions',
    clauses: ['4.5/tool-put-null-removes-text-instructions'],
    description: 'PUT /tools/{id} with textInstructions: null keeps the stored value.',
    override: override(unsentTextInstructions, (next) => (sent, stored) => (sent === 'null' ? stored : next(sent, stored))),
  },
  {
    name: 'tools.put-appends-steps',
    clauses: ['8/put-replay-converges'],
    description:
      'PUT /tools/{id} appends the steps it sends to the stored ones instead of replacing them (a merge that appends), so every replay of the same PUT adds the steps again.',
    override: override(writtenInstruction, (next) => (stored, sent) => {
      const written = next(stored, sent);
      return stored ? { ...written, steps: [...stored.steps, ...written.steps] } : written;
    }),
  },
  {
    name: 'tools.empty-description-stored',
    clauses: ['4.5/tool-empty-description-restores'],
    description: "An empty description override is stored as '' instead of restoring the default.",
    override: override(storedOverrideText, () => (v) => v),
  },
  {
    name: 'tools.voice-text-coupled',
    clauses: ['4.5/tool-overrides-independent'],
    description: 'PUT text-description-override also overrides the voice description.',
    override: override(setTextDescription, (next) => (o, v) => {
      next(o, v);
      o.description = v;
    }),
  },
  {
    name: 'tools.null-removal-not-stored',
    clauses: ['4.5/tool-put-null-removes-text-instructions'],
    description:
      'PUT /tools/{id} with textInstructions null answers it removed but the update skips null columns (COALESCE), so the stored value stays and the next PUT that omits it shows it again.',
    override: override(storedTextInstructions, (next) => (answered, previous) => (answered === null ? previous : next(answered, previous))),
  },
  {
    name: 'tools.step-delete-clears-all',
    clauses: ['4.5/tool-overrides-independent'],
    description:
      "DELETE …/steps/{stepId}/text-override removes every step text override of the assistant's tool, not only that step's (a DELETE whose WHERE clause leaves out the step).",
    override: override(deleteStepOverride, () => (o) => {
      o.textSteps = {};
    }),
  },
  {
    name: 'tools.overrides-shared-across-assistants',
    clauses: ['4.5/tool-overrides-per-assistant', '4.5/tool-overrides-independent'],
    description: "Tool overrides are keyed by the tool alone: one assistant's voice and text overrides of a tool are every assistant's.",
    override: override(overrideKey, () => (_assistantId, toolId) => toolId),
  },
  {
    name: 'tools.step-override-lost-update',
    clauses: ['4.5/tool-overrides-independent'],
    description:
      "PUT …/steps/{stepId}/text-override reads the assistant's step overrides, awaits, then writes them back with its step (read-modify-write without a lock): of two steps written at once, the later write undoes the other.",
    override: override(stepOverridesBase, () => async (read) => {
      await new Promise<void>((resolve) => setTimeout(resolve, 25));
      return read;
    }),
  },
  {
    name: 'xtenant.foreign-tool-403',
    clauses: ['5.7/isolation-tool-update', '5.7/foreign-resource-not-found', '5.7/isolation-tool-instruction'],
    description: "PUT /tools/{id} and PUT /tools/{id}/instruction on another tenant's tool answer 403 FORBIDDEN instead of 404.",
    override: override(foreignToolAnswer, () => () => forbidden()),
  },
  {
    name: 'xtenant.foreign-tool-write-through',
    clauses: ['5.7/no-cross-tenant-write'],
    description: "PUT /tools/{id} on another tenant's tool answers 404 but applies the write.",
    override: override(foreignWrite, (next) => (target, write) => (target === 'tool' ? write() : next(target, write))),
  },
  {
    name: 'xtenant.foreign-override-message',
    clauses: ['5.7/isolation-text-override', '5.7/foreign-indistinguishable'],
    description: "On the per-assistant tool override routes, another tenant's assistant or tool answers 404 with a different message.",
    override: override(foreignOverrideRefusal, () => () => new ApiError(404, 'RESOURCE_NOT_FOUND', 'Assistant or tool belongs to another tenant')),
  },
  {
    name: 'xtenant.foreign-override-write-through',
    clauses: ['5.7/no-cross-tenant-write', '5.7/isolation-text-override'],
    description: "DELETE /assistants/{id}/tools/{toolId}/text-override with another tenant's assistant answers 404 but deletes its text overrides.",
    override: override(foreignWrite, (next) => (target, write) => (target === 'text-overrides' ? write() : next(target, write))),
  },
]);
