/**
 * Faults of the merge of a PATCH into the stored assistant (§2.2, §2.4–§2.7, §4.1, §8): each
 * overrides one seam of model/merge.ts. Probes: simulator/test/faults/merge.test.ts.
 */
import { merge, nullKey, settingsFields } from '../model/merge.ts';
import { override } from '../seam.ts';
import { isPlainObject } from '../validation/formats.ts';
import { defineFaults, type Fault, type FaultRow } from './define.ts';

/** A field §2.2 merges into settings that replaces the whole settings object instead (when sent at the top level). */
const CLOBBERS = [
  {
    name: 'merge.settings-clobbered',
    clauses: ['2.2/transfer-dial-timeout-merged-into-settings'],
    description: 'transferDialTimeout replaces the whole settings object instead of merging one key.',
    field: 'transferDialTimeout',
  },
  {
    name: 'merge.warm-whisper-clobbers',
    clauses: ['2.2/warm-whisper-delay-merged-into-settings'],
    description: 'warmWhisperDelaySeconds replaces the whole settings object instead of merging one key.',
    field: 'warmWhisperDelaySeconds',
  },
  {
    name: 'merge.warm-return-clobbers',
    clauses: ['2.2/warm-return-message-merged-into-settings'],
    description: 'warmReturnMessage replaces the whole settings object instead of merging one key.',
    field: 'warmReturnMessage',
  },
] as const satisfies readonly (FaultRow<string> & { field: string })[];

/** A document whose null leaves the stored one instead of clearing it (§2.5–§2.7 "null clears"). */
const NULL_IGNORED = [
  {
    name: 'merge.transfer-settings-null-ignored',
    clauses: ['2.5/null-clears'],
    description: 'transferSettings: null leaves the stored document instead of clearing it.',
    field: 'transferSettings',
  },
  {
    name: 'merge.dictionary-settings-null-ignored',
    clauses: ['2.6/null-clears'],
    description: 'dictionarySettings: null leaves the stored document instead of clearing it.',
    field: 'dictionarySettings',
  },
  {
    name: 'merge.ivr-null-ignored',
    clauses: ['2.7/null-clears'],
    description: 'ivrSettings: null leaves the stored document instead of clearing it.',
    field: 'ivrSettings',
  },
] as const satisfies readonly (FaultRow<string> & { field: string })[];

/** The fault of a {@link CLOBBERS} row: when `field` is among the fields sent, they replace settings. */
function clobbers<N extends string>({ field, ...row }: FaultRow<N> & { field: string }): Fault & FaultRow<N> {
  return { ...row, override: override(settingsFields, (next) => (settings, fields) => (field in fields ? { ...fields } : next(settings, fields))) };
}

/** The fault of a {@link NULL_IGNORED} row: null on `field` keeps a stored document. */
function nullIgnored<N extends string>({ field, ...row }: FaultRow<N> & { field: string }): Fault & FaultRow<N> {
  return {
    ...row,
    override: override(
      merge,
      (next) => (state, f, stored, sent) => (f === field && sent === null && isPlainObject(stored) ? stored : next(state, f, stored, sent)),
    ),
  };
}

/** The merge faults. */
export const MERGE_FAULTS = defineFaults([
  ...CLOBBERS.map(clobbers),
  ...NULL_IGNORED.map(nullIgnored),

  {
    name: 'merge.transfer-settings-replace',
    clauses: ['2.5/deep-merge'],
    description: 'A transferSettings PATCH replaces the stored document instead of deep-merging into it.',
    override: override(
      merge,
      (next) => (state, field, stored, sent) => (field === 'transferSettings' && isPlainObject(sent) ? { ...sent } : next(state, field, stored, sent)),
    ),
  },
  {
    name: 'merge.dictionary-settings-merged',
    clauses: ['2.6/replace'],
    description: 'A dictionarySettings object is merged key by key into the stored one instead of replacing it.',
    override: override(merge, (next) => (state, field, stored, sent) => {
      const merged = next(state, field, stored, sent);
      return field === 'dictionarySettings' && isPlainObject(sent) && isPlainObject(stored) ? { ...stored, ...(merged as object) } : merged;
    }),
  },
  {
    name: 'merge.ivr-replace',
    clauses: ['2.7/deep-merge-per-key'],
    description: 'An ivrSettings PATCH replaces the stored document instead of merging per key.',
    override: override(merge, (next) => (state, field, stored, sent) => next(state, field, field === 'ivrSettings' && isPlainObject(sent) ? {} : stored, sent)),
  },
  {
    name: 'merge.ivr-unknown-keys-dropped',
    clauses: ['2.7/free-form'],
    description: 'ivrSettings keeps only ivrMode: other inner keys are dropped, as if the document were validated.',
    override: override(
      merge,
      (next) => (state, field, stored, sent) =>
        next(state, field, stored, field === 'ivrSettings' && isPlainObject(sent) ? ('ivrMode' in sent ? { ivrMode: sent.ivrMode } : {}) : sent),
    ),
  },
  {
    name: 'merge.ivr-mode-false-dropped',
    clauses: ['2.7/ivr-mode-boolean'],
    description: 'ivrSettings.ivrMode false is dropped as if it were the default, so a GET does not show it.',
    override: override(merge, (next) => (state, field, stored, sent) => {
      if (field !== 'ivrSettings' || !isPlainObject(sent) || sent.ivrMode !== false) return next(state, field, stored, sent);
      const { ivrMode: _false, ...rest } = sent;
      return next(state, field, stored, rest);
    }),
  },
  {
    name: 'merge.ivr-omitted-cleared',
    clauses: ['2.7/omitted-unchanged'],
    description: 'A PATCH without ivrSettings clears the stored document.',
    override: override(
      merge,
      (next) => (state, field, stored, sent) => (field === 'ivrSettings' && sent === undefined ? null : next(state, field, stored, sent)),
    ),
  },
  {
    name: 'merge.omitted-reset',
    clauses: ['4.1/omitted-unchanged'],
    description: 'A PATCH that omits idleMessages resets it to its default ([]).',
    override: override(
      merge,
      (next) => (state, field, stored, sent) => (field === 'idleMessages' && sent === undefined ? [] : next(state, field, stored, sent)),
    ),
  },
  {
    name: 'merge.omitted-server-url-cleared',
    clauses: ['4.1/omitted-unchanged'],
    description: 'A PATCH that omits serverUrl clears it (a full-row update whose empty URL box means null), so deliveries fall back to the tenant URL.',
    override: override(
      merge,
      (next) => (state, field, stored, sent) => (field === 'serverUrl' && sent === undefined ? null : next(state, field, stored, sent)),
    ),
  },
  {
    name: 'merge.replay-drift',
    clauses: ['8/patch-replay-converges'],
    description: 'categories sent in a PATCH are appended to the stored list, so a replayed PATCH grows it.',
    override: override(
      merge,
      (next) => (state, field, stored, sent) =>
        field === 'categories' && Array.isArray(stored) && Array.isArray(sent) ? [...stored, ...sent] : next(state, field, stored, sent),
    ),
  },
  {
    name: 'merge.tool-ids-union',
    clauses: ['2.2/tool-ids-replace-set'],
    description: 'A non-empty toolIds is added to the stored set instead of replacing it.',
    override: override(
      merge,
      (next) => (state, field, stored, sent) =>
        field === 'toolIds' && Array.isArray(sent) && sent.length > 0 && Array.isArray(stored)
          ? [...new Set([...stored, ...sent])]
          : next(state, field, stored, sent),
    ),
  },
  {
    name: 'merge.tool-ids-empty-ignored',
    clauses: ['2.2/tool-ids-replace-set'],
    description: '`toolIds: []` is ignored instead of unlinking every tool.',
    override: override(
      merge,
      (next) => (state, field, stored, sent) => (field === 'toolIds' && Array.isArray(sent) && sent.length === 0 ? stored : next(state, field, stored, sent)),
    ),
  },
  {
    name: 'merge.dictionary-ids-empty-ignored',
    clauses: ['2.2/dictionary-ids-empty-unlinks'],
    description: '`dictionaryIds: []` is ignored instead of unlinking every dictionary.',
    override: override(
      merge,
      (next) => (state, field, stored, sent) =>
        field === 'dictionaryIds' && Array.isArray(sent) && sent.length === 0 ? stored : next(state, field, stored, sent),
    ),
  },
  {
    name: 'merge.ivr-null-key-kept',
    clauses: ['2.7/null-key-deleted'],
    description: 'An ivrSettings key sent as null is stored as null instead of being deleted.',
    override: override(nullKey, (next) => (path, stored) => (path.startsWith('ivrSettings.') ? null : next(path, stored))),
  },
  {
    name: 'merge.plan-null-ignored',
    clauses: ['2.4/plan-null-deletes'],
    description: 'null on a conversationConfig plan, or on a field inside one, is accepted but leaves the stored value.',
    override: override(
      nullKey,
      (next) => (path, stored) =>
        /^settings\.conversationConfig\.(endpointingPlan|turnDetectionPlan|vadPlan|interruptionPlan)(\.[^.]+)?$/.test(path) ? stored : next(path, stored),
    ),
  },
  {
    name: 'merge.expressive-options-null-kept',
    clauses: ['2.4/expressive-options-null-omits'],
    description: 'expressiveOptions: null is stored as null instead of deleting the key.',
    override: override(nullKey, (next) => (path, stored) => (path === 'settings.conversationConfig.expressiveOptions' ? null : next(path, stored))),
  },
]);
