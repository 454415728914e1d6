/**
 * How a PATCH's valid values become the stored assistant (§2.2, §2.4–§2.7, §4.1): the merge of a
 * field, what a key sent as null inside a document does, and how the fields §2.2 merges into
 * `settings` join it. One seam each, with the spec's reading as the default; the merge faults
 * (faults/merge.ts) override them.
 */
import { seam } from '../seam.ts';
import type { SimState } from '../state.ts';
import { isPlainObject } from '../validation/formats.ts';

type Obj = Record<string, unknown>;

/**
 * §2.4 rules 1–2, §2.7: what a key sent as null inside a document (`path`, e.g.
 * `settings.conversationConfig.vadPlan` or `ivrSettings.greeting`) leaves stored: nothing (the
 * key is deleted), answered as undefined. `stored` is the key's stored value.
 */
export const nullKey = seam('merge.null-key', (_path: string, _stored: unknown): unknown => undefined);

/**
 * §2.7 deep merge: objects merge key by key at every depth, a key sent as null goes as
 * {@link nullKey} says (deleted), anything else (arrays too) replaces. `path` names `patch`.
 */
export function deepMerge(state: SimState, path: string, stored: unknown, patch: Obj): Obj {
  const next: Obj = isPlainObject(stored) ? { ...stored } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) {
      const kept = state.behaviour.of(nullKey)(`${path}.${k}`, next[k]);
      if (kept === undefined) delete next[k];
      else next[k] = kept;
    } else if (isPlainObject(v)) {
      next[k] = deepMerge(state, `${path}.${k}`, next[k], v);
    } else {
      next[k] = v;
    }
  }
  return next;
}

/**
 * The value a top-level assistant field holds after a PATCH (§4.1), from what it held
 * (`stored`) and the valid value sent (`sent`; undefined when the field was omitted):
 * - omitted: unchanged (§4.1);
 * - `toolIds`, `dictionaryIds`: the set sent replaces the stored one, `[]` unlinks all (§2.2);
 * - `transferSettings`: null clears, an object deep-merges (§2.5);
 * - `dictionarySettings`: null clears, an object replaces (§2.6);
 * - `ivrSettings`: null clears, an object deep-merges, null keys deleted (§2.7);
 * - any other field: the value sent.
 */
export const merge = seam('merge.field', (state: SimState, field: string, stored: unknown, sent: unknown): unknown => {
  if (sent === undefined) return stored;
  switch (field) {
    case 'toolIds':
    case 'dictionaryIds':
      return [...new Set(sent as string[])];
    case 'transferSettings':
      return isPlainObject(sent) ? { ...(isPlainObject(stored) ? stored : {}), ...sent } : null;
    case 'dictionarySettings':
      return isPlainObject(sent) ? sent : null;
    case 'ivrSettings':
      return isPlainObject(sent) ? deepMerge(state, field, stored, sent) : null;
    default:
      return sent;
  }
});

/**
 * §2.2: transferDialTimeout, warmWhisperDelaySeconds and warmReturnMessage sent at the top level
 * are merged into `settings` one key each (`fields`), leaving its other keys as they are.
 */
export const settingsFields = seam('merge.settings-fields', (settings: unknown, fields: Obj): Obj => ({
  ...(isPlainObject(settings) ? settings : {}),
  ...fields,
}));
