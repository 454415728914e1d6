/**
 * Validation of the structured assistant documents: `settings.conversationConfig` (§2.4, merged
 * here key by key), `transferSettings` (§2.5), `dictionarySettings` (§2.6) and `ivrSettings`
 * (§2.7). Each function records failures on the Checker and returns the valid value; the caller
 * merges it (model/merge.ts) and stores nothing when the Checker has any error. The rules are
 * seams (validation/rules.ts and the ones below), so the bounds faults override them.
 */
import { nullKey } from '../model/merge.ts';
import { seam } from '../seam.ts';
import type { SimState } from '../state.ts';
import type { Checker } from './checker.ts';
import { isPlainObject } from './formats.ts';
import { bound, enumValue, SPEC_BOUNDS, textLength, type BoundedField } from './rules.ts';

type Obj = Record<string, unknown>;

/** Maximum length of `expressiveOptions.instructionsAppend` (§2.4, §8). */
export const INSTRUCTIONS_APPEND_MAX = SPEC_BOUNDS.instructionsAppend.max;

function isNum(v: unknown): v is number {
  return typeof v === 'number' && Number.isFinite(v);
}

/** Whether `v` lies within the bound of `field` in force. */
function within(state: SimState, field: BoundedField, v: number): boolean {
  const { min, max } = state.behaviour.of(bound)(field, v);
  return v >= min && v <= max;
}

/** Checks one field of a §2.4 document; answers the refusal, or null. */
type FieldRule = (v: unknown, state: SimState) => string | null;

const anyNumber: FieldRule = (v) => (isNum(v) ? null : 'must be a number or null');
const enumOf =
  (field: string, ...allowed: string[]): FieldRule =>
  (v, state) =>
    state.behaviour.of(enumValue)(field, v, allowed) !== undefined ? null : `must be one of ${allowed.join(', ')} (or null)`;

/** §2.4 deliveryMode values. */
const DELIVERY_MODES = ['none', 'emotion_tagging', 'expressive'];

/** Plans of §2.4 and the rule of each listed field. Bounds "not shown" are not enforced. */
const PLANS: Record<string, Record<string, FieldRule>> = {
  endpointingPlan: { mode: enumOf('mode', 'fixed', 'dynamic'), minDelay: anyNumber, maxDelay: anyNumber },
  turnDetectionPlan: { timeout: anyNumber, unlikelyThreshold: anyNumber },
  vadPlan: { minSpeechDuration: anyNumber, minSilenceDuration: anyNumber, prefixPaddingDuration: anyNumber },
  interruptionPlan: {
    minDuration: (v, state) => (isNum(v) && within(state, 'interruptionPlan.minDuration', v) ? null : 'must be a number from 0 to 5 (or null)'),
    minWords: (v, state) =>
      typeof v === 'number' && Number.isInteger(v) && within(state, 'interruptionPlan.minWords', v) ? null : 'must be an integer from 0 to 10 (or null)',
  },
};

const NONVERBAL_KEYS = ['laughing', 'breathing', 'sighing', 'crying', 'vocalizing', 'mouthSounds', 'reflexSounds'];

const EXPRESSIVE: Record<string, FieldRule> = {
  disfluencies: (v) => (typeof v === 'boolean' ? null : 'must be a boolean (or null)'),
  nonverbalSounds: (v) => {
    if (typeof v === 'boolean') return null;
    if (!isPlainObject(v)) return 'must be a boolean or an object of booleans (or null)';
    const bad = NONVERBAL_KEYS.filter((k) => k in v && typeof v[k] !== 'boolean' && v[k] !== null);
    return bad.length ? `${bad.join(', ')} must be boolean` : null;
  },
  pace: enumOf('pace', 'slow', 'normal', 'fast'),
  instructionsAppend: (v, state) =>
    typeof v === 'string' && state.behaviour.of(textLength)('instructionsAppend', v) <= state.behaviour.of(bound)('instructionsAppend', v).max
      ? null
      : `must be a string of at most ${INSTRUCTIONS_APPEND_MAX} characters (or null)`,
};

/**
 * §2.4 rule 1: the rule of the field at `path` inside a plan or expressiveOptions
 * (`settings.conversationConfig.<plan>.<field>`), given by `rules`; null is taken on every such
 * field (it deletes the field). Answers the refusal, or null.
 */
export const documentFieldRule = seam('bounds.document-field-rule', (state: SimState, _path: string, rule: FieldRule | undefined, v: unknown): string | null =>
  v === null || !rule ? null : rule(v, state),
);

/**
 * Merges `patch` into `stored` key by key: listed fields are checked with `rules`, a key sent as
 * null goes as {@link nullKey} says (§2.4 rule 1: deleted), unlisted keys are kept as sent
 * (clients ignore them, §2.4).
 */
function mergeFields(state: SimState, c: Checker, path: string, stored: unknown, patch: Obj, rules: Record<string, FieldRule>): Obj {
  const next: Obj = isPlainObject(stored) ? { ...stored } : {};
  for (const [k, v] of Object.entries(patch)) {
    const problem = state.behaviour.of(documentFieldRule)(state, `${path}.${k}`, Object.hasOwn(rules, k) ? rules[k] : undefined, v);
    if (problem) c.fail(`${path}.${k}`, problem);
    else if (v === null) setOrDelete(next, k, state.behaviour.of(nullKey)(`${path}.${k}`, next[k]));
    else next[k] = v;
  }
  return next;
}

/** Stores `value` under `key`, or deletes the key when `value` is undefined. */
function setOrDelete(o: Obj, key: string, value: unknown): void {
  if (value === undefined) delete o[key];
  else o[key] = value;
}

/**
 * §2.4: validates `settings.conversationConfig` and merges it into the stored one. Plans merge
 * field by field; `null` on a plan, a plan field, `expressiveOptions` (rule 2), `deliveryMode` or
 * `emotionTaggingEnabled` deletes the stored value ({@link nullKey}). Unknown keys are kept.
 */
export function mergeConversationConfig(state: SimState, c: Checker, path: string, stored: unknown, patch: unknown): Obj | undefined {
  if (!isPlainObject(patch)) {
    c.fail(path, 'must be an object (or null)');
    return undefined;
  }
  const next: Obj = isPlainObject(stored) ? { ...stored } : {};
  for (const [k, v] of Object.entries(patch)) {
    const p = `${path}.${k}`;
    if (v === null) {
      setOrDelete(next, k, state.behaviour.of(nullKey)(p, next[k]));
      continue;
    }
    if (Object.hasOwn(PLANS, k)) {
      if (!isPlainObject(v)) c.fail(p, 'must be an object or null');
      else next[k] = mergeFields(state, c, p, next[k], v, PLANS[k]);
    } else if (k === 'deliveryMode') {
      const mode = state.behaviour.of(enumValue)(k, v, DELIVERY_MODES);
      if (mode === undefined) c.fail(p, `must be one of ${DELIVERY_MODES.join(', ')} (or null)`);
      else next[k] = mode;
    } else if (k === 'emotionTaggingEnabled') {
      if (typeof v !== 'boolean') c.fail(p, 'must be a boolean (or null)');
      else next[k] = v;
    } else if (k === 'expressiveOptions') {
      if (!isPlainObject(v)) c.fail(p, 'must be an object or null');
      else next[k] = mergeFields(state, c, p, next[k], v, EXPRESSIVE);
    } else {
      next[k] = v;
    }
  }
  return next;
}

/** Keys allowed in transferSettings (§2.5); any other key is rejected. */
export const TRANSFER_SETTINGS_KEYS = ['amd_detection', 'use_assistant_number'] as const;

/** §2.5: the rule of one transferSettings key: one of the two known keys, with a boolean value. Answers the refusal, or null. */
export const transferSettingsKeyRule = seam('bounds.transfer-settings-key', (key: string, v: unknown): string | null => {
  if (!(TRANSFER_SETTINGS_KEYS as readonly string[]).includes(key)) return `unknown key; allowed: ${TRANSFER_SETTINGS_KEYS.join(', ')}`;
  return typeof v === 'boolean' ? null : 'must be a boolean';
});

/**
 * §2.5: checks a transferSettings value: `null` (clears), or an object of the known keys
 * ({@link transferSettingsKeyRule}). Answers the valid value, or undefined after recording the
 * failures.
 */
export function readTransferSettings(state: SimState, c: Checker, patch: unknown): Obj | null | undefined {
  const path = 'transferSettings';
  if (patch === null) return null;
  if (!isPlainObject(patch)) {
    c.fail(path, 'must be an object or null');
    return undefined;
  }
  let bad = false;
  for (const [k, v] of Object.entries(patch)) {
    const problem = state.behaviour.of(transferSettingsKeyRule)(k, v);
    if (problem) {
      c.fail(`${path}.${k}`, problem);
      bad = true;
    }
  }
  return bad ? undefined : patch;
}

/** Languages allowed in dictionarySettings items (§2.6 rule 3). */
export const DICTIONARY_LANGUAGES = ['en', 'fr', 'de', 'es', 'it', 'pt', 'ar', 'nl', 'hi', 'ru', 'ja'] as const;

/**
 * §2.6 rules 3-4: a listed code (any case) or a regional locale of one (`en-GB`, `pt_BR`,
 * `es-419`) → the base code; absent or null → null; anything else (a language name, an unlisted
 * code) → undefined (invalid).
 */
export function normalizeDictionaryLanguage(v: unknown): string | null | undefined {
  if (v === undefined || v === null) return null;
  if (typeof v !== 'string') return undefined;
  const m = /^([A-Za-z]{2})(?:[-_](?:[A-Za-z]{2}|\d{3}|[A-Za-z]{4}(?:[-_](?:[A-Za-z]{2}|\d{3}))?))?$/.exec(v);
  if (!m) return undefined;
  const base = m[1].toLowerCase();
  return (DICTIONARY_LANGUAGES as readonly string[]).includes(base) ? base : undefined;
}

/**
 * §2.6 rules 3-4: the `language` to store for the item at `index` of a dictionary list, sent as
 * `v` ({@link normalizeDictionaryLanguage}): `{ value }` (undefined: the key stays absent), or
 * null when `v` is not a language the spec accepts.
 */
export const dictionaryLanguage = seam('bounds.dictionary-language', (v: unknown, _index: number): { value: unknown } | null => {
  const lang = normalizeDictionaryLanguage(v);
  return lang === undefined ? null : { value: lang };
});

/** A failing rule of a dictionary item: `field` inside the item (`''`: the item itself) and why. */
export interface ItemProblem {
  field: string;
  message: string;
}

/**
 * §2.6: the rules of the item at `index` of `list` other than its language: a keyterm needs a
 * non-empty string `term`; a pronunciation needs a non-empty string `word`, string (or null)
 * `respell` and `phonemes`, and at least one of them non-empty. Answers every failing rule, in
 * that order.
 */
export const dictionaryItemRule = seam('bounds.dictionary-item', (list: 'sttKeyterms' | 'ttsPronunciations', item: Obj, _index: number): ItemProblem[] => {
  const problems: ItemProblem[] = [];
  const nonEmpty = (k: string) => typeof item[k] === 'string' && item[k] !== '';
  if (list === 'sttKeyterms') {
    if (!nonEmpty('term')) problems.push({ field: 'term', message: 'must be a non-empty string' });
    return problems;
  }
  if (!nonEmpty('word')) problems.push({ field: 'word', message: 'must be a non-empty string' });
  for (const k of ['respell', 'phonemes']) {
    if (item[k] !== undefined && item[k] !== null && typeof item[k] !== 'string') problems.push({ field: k, message: 'must be a string' });
  }
  const has = (k: string) => typeof item[k] === 'string' && (item[k] as string).trim() !== '';
  if (!has('respell') && !has('phonemes')) problems.push({ field: '', message: 'needs at least one of phonemes and respell' });
  return problems;
});

/**
 * §2.6: checks a dictionarySettings value: `null` (clears), or an object whose `sttKeyterms` and
 * `ttsPronunciations` items follow {@link dictionaryItemRule} and whose `language`s are
 * normalized ({@link dictionaryLanguage}). Unknown keys are kept. Answers the value to store, or
 * undefined after recording the failures.
 */
export function readDictionarySettings(state: SimState, c: Checker, patch: unknown): Obj | null | undefined {
  const path = 'dictionarySettings';
  if (patch === null) return null;
  if (!isPlainObject(patch)) {
    c.fail(path, 'must be an object or null');
    return undefined;
  }
  const seams = state.behaviour;
  const next: Obj = { ...patch };
  let bad = false;
  for (const key of ['sttKeyterms', 'ttsPronunciations'] as const) {
    if (!(key in patch)) continue;
    const list = patch[key];
    if (!Array.isArray(list)) {
      c.fail(`${path}.${key}`, 'must be an array');
      bad = true;
      continue;
    }
    next[key] = list.map((item, i) => {
      const p = `${path}.${key}[${i}]`;
      if (!isPlainObject(item)) {
        c.fail(p, 'must be an object');
        bad = true;
        return item;
      }
      const out: Obj = { ...item };
      const problems = seams.of(dictionaryItemRule)(key, item, i);
      for (const { field, message } of problems) c.fail(field ? `${p}.${field}` : p, message);
      const lang = seams.of(dictionaryLanguage)(item.language, i);
      if (lang === null) c.fail(`${p}.language`, `must be null or one of ${DICTIONARY_LANGUAGES.join(', ')} (a regional locale is stored as its base code)`);
      else if (lang.value !== undefined) out.language = lang.value;
      if (problems.length > 0 || lang === null) bad = true;
      return problems.length > 0 || lang === null ? item : out;
    });
  }
  return bad ? undefined : next;
}

/**
 * §2.7: checks an ivrSettings value: `null` (clears) or an object (no inner structure
 * validated). Answers the value, or undefined after recording the failure.
 */
export function readIvrSettings(_state: SimState, c: Checker, patch: unknown): Obj | null | undefined {
  if (patch === null || isPlainObject(patch)) return patch;
  c.fail('ivrSettings', 'must be an object or null');
  return undefined;
}
