/**
 * Faults of the prompts (§4.5, and the §2.2 prompt links of an assistant): each overrides one
 * seam of routes/prompts.ts or model/merge.ts. Probes:
 * simulator/test/faults/prompts.test.ts.
 */
import { merge } from '../model/merge.ts';
import { creatableTypes, listedByType, listedPrompts } from '../routes/prompts.ts';
import { override } from '../seam.ts';
import { defineFaults } from './define.ts';

/** The prompt faults. */
export const PROMPTS_FAULTS = defineFaults([
  {
    name: 'prompts.whisper-summary-rejected',
    clauses: ['4.5/prompt-types'],
    description: 'POST /prompts with type whisper_summary answers 400.',
    override: override(creatableTypes, (next) => () => next().filter((t) => t !== 'whisper_summary')),
  },
  {
    name: 'prompts.ivr-rejected',
    clauses: ['4.5/prompt-types'],
    description: 'POST /prompts refuses type ivr, one of the four named types.',
    override: override(creatableTypes, (next) => () => next().filter((t) => t !== 'ivr')),
  },
  {
    name: 'prompts.type-filter-ignored',
    clauses: ['4.5/prompt-filter-by-type'],
    description: 'GET /prompts?type= ignores the filter and lists every type.',
    override: override(listedByType, () => () => true),
  },
  {
    name: 'prompts.type-list-cached',
    clauses: ['4.5/prompt-filter-by-type'],
    description:
      'GET /prompts?type= answers from a cache filled by the first read of each type that no POST /prompts invalidates: a prompt made after that read is not listed.',
    override: override(listedPrompts, (next) => {
      const cache = new Map<string, Record<string, unknown>[]>();
      return (tenantId, type, rows) => {
        const key = `${tenantId}|${type ?? '*'}`;
        if (!cache.has(key)) cache.set(key, next(tenantId, type, rows));
        return structuredClone(cache.get(key)!);
      };
    }),
  },
  {
    name: 'prompts.link-null-ignored',
    clauses: ['2.2/prompt-link-fields'],
    description: 'PATCH /assistants/{id} with chatPromptId (or whisperSummaryPromptId, voicePersonaPromptId) null leaves the stored id.',
    // The three nullable links (chatPromptId, whisperSummaryPromptId, voicePersonaPromptId) keep their prompt.
    override: override(
      merge,
      (next) => (state, field, stored, sent) => (sent === null && field.endsWith('PromptId') ? stored : next(state, field, stored, sent)),
    ),
  },
]);
