/**
 * Validation and merge of the structured assistant documents:
 * `settings.conversationConfig` (§2.4), `transferSettings` (§2.5), `dictionarySettings` (§2.6)
 * and `ivrSettings` (§2.7). Each `merge*` function records failures on the Checker and returns the
 * value to store; the caller stores nothing when the Checker has any error.
 */
import { faultOn } from '../faults.ts';
import type { SimState } from '../state.ts';
import type { Checker } from './checker.ts';
import { isPlainObject } from './formats.ts';

type Obj = Record<string, unknown>;

/** Maximum length of `expressiveOptions.instructionsAppend` (§2.4, §8). */
export const INSTRUCTIONS_APPEND_MAX = 2000;

function isNum(v: unknown): v is number {
  return typeof v === 'number' && Number.isFinite(v);
}

/**
 * The lower (`lower` true) or upper bound of an interruptionPlan field (§2.4, §8: minDuration 0 to
 * 5, minWords 0 to 10) as the switched-on faults move it: `bounds.interruption-<field>-6`/`-11`
 * (one past the top), `-negative`/`-minus-1` (below 0 accepted), `-refuses-0`, `-refuses-5`/`-10`
 * (the bound itself refused; a tiny step for the real-valued minDuration).
 */
function interruptionBound(state: SimState, field: 'min-duration' | 'min-words', min: number, max: number, lower: boolean): number {
  const step = field === 'min-duration' ? 0.001 : 1;
  if (lower) {
    if (faultOn(state, field === 'min-duration' ? 'bounds.interruption-min-duration-negative' : 'bounds.interruption-min-words-minus-1')) return min - 1;
    if (faultOn(state, `bounds.interruption-${field}-refuses-0`)) return min + step;
    return min;
  }
  if (faultOn(state, field === 'min-duration' ? 'bounds.interruption-min-duration-6' : 'bounds.interruption-min-words-11')) return max + 1;
  if (faultOn(state, `bounds.interruption-${field}-refuses-${max}`)) return max - step;
  return max;
}

/** Checks one field; `state` is there for the fault switch points only. */
type FieldRule = (v: unknown, state: SimState) => string | null;

const anyNumber: FieldRule = (v) => (isNum(v) ? null : 'must be a number or null');
const enumOf =
  (...allowed: string[]): FieldRule =>
  (v) =>
    typeof v === 'string' && allowed.includes(v) ? null : `must be one of ${allowed.join(', ')} (or null)`;

/** Plans of §2.4 and the rule of each listed field. Bounds "not shown" are not enforced. */
const PLANS: Record<string, Record<string, FieldRule>> = {
  endpointingPlan: { mode: enumOf('fixed', 'dynamic'), minDelay: anyNumber, maxDelay: anyNumber },
  turnDetectionPlan: { timeout: anyNumber, unlikelyThreshold: anyNumber },
  vadPlan: { minSpeechDuration: anyNumber, minSilenceDuration: anyNumber, prefixPaddingDuration: anyNumber },
  interruptionPlan: {
    minDuration: (v, state) => {
      const [min, max] = [interruptionBound(state, 'min-duration', 0, 5, true), interruptionBound(state, 'min-duration', 0, 5, false)];
      return isNum(v) && v >= min && v <= max ? null : 'must be a number from 0 to 5 (or null)';
    },
    minWords: (v, state) => {
      const [min, max] = [interruptionBound(state, 'min-words', 0, 10, true), interruptionBound(state, 'min-words', 0, 10, false)];
      return typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max ? null : 'must be an integer from 0 to 10 (or null)';
    },
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
  pace: (v, state) => (typeof v === 'string' && faultOn(state, 'bounds.pace-any-string') ? null : enumOf('slow', 'normal', 'fast')(v, state)),
  instructionsAppend: (v, state) => {
    const max = faultOn(state, 'bounds.instructions-append-2001')
      ? INSTRUCTIONS_APPEND_MAX + 1
      : faultOn(state, 'bounds.instructions-append-refuses-2000')
        ? INSTRUCTIONS_APPEND_MAX - 1
        : INSTRUCTIONS_APPEND_MAX;
    return typeof v === 'string' && (faultOn(state, 'bounds.instructions-append-counts-bytes') ? Buffer.byteLength(v, 'utf8') : v.length) <= max
      ? null
      : `must be a string of at most ${INSTRUCTIONS_APPEND_MAX} characters (or null)`;
  },
};

/**
 * Merges `patch` into `stored` key by key: listed fields are checked with `rules`, `null` deletes
 * a key (§2.4 rule 1; with `keepOnNull` the stored value is left, fault `merge.plan-null-ignored`),
 * unlisted keys are kept as sent (clients ignore them, §2.4).
 */
function mergeFields(
  state: SimState,
  c: Checker,
  path: string,
  stored: unknown,
  patch: Obj,
  rules: Record<string, FieldRule>,
  keepOnNull = false,
): Obj {
  const next: Obj = isPlainObject(stored) ? { ...stored } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) {
      // Fault: null is taken on a whole plan but refused on a field inside one.
      if (/Plan$/.test(path) && faultOn(state, 'bounds.plan-field-null-refused')) {
        c.fail(`${path}.${k}`, 'must not be null');
        continue;
      }
      if (!keepOnNull) delete next[k];
      continue;
    }
    const rule = rules[k];
    const problem = rule ? rule(v, state) : null;
    if (problem) c.fail(`${path}.${k}`, problem);
    else next[k] = v;
  }
  return next;
}

/**
 * §2.4: validates `settings.conversationConfig` and merges it into the stored one. Plans merge
 * field by field; `null` on a plan, a plan field, `expressiveOptions` (rule 2), `deliveryMode` or
 * `emotionTaggingEnabled` deletes the stored value. Unknown keys are kept. Faults:
 * `merge.plan-null-ignored` (null on a plan or plan field leaves the stored value),
 * `merge.expressive-options-null-kept` (expressiveOptions null stored as null).
 */
export function mergeConversationConfig(
  state: SimState,
  c: Checker,
  path: string,
  stored: unknown,
  patch: unknown,
): Obj | undefined {
  if (!isPlainObject(patch)) {
    c.fail(path, 'must be an object (or null)');
    return undefined;
  }
  const next: Obj = isPlainObject(stored) ? { ...stored } : {};
  const planNullIgnored = faultOn(state, 'merge.plan-null-ignored');
  for (const [k, v] of Object.entries(patch)) {
    const p = `${path}.${k}`;
    if (v === null) {
      if (k in PLANS && planNullIgnored) continue;
      if (k === 'expressiveOptions' && faultOn(state, 'merge.expressive-options-null-kept')) next[k] = null;
      else delete next[k];
      continue;
    }
    if (k in PLANS) {
      if (!isPlainObject(v)) c.fail(p, 'must be an object or null');
      else next[k] = mergeFields(state, c, p, next[k], v, PLANS[k], planNullIgnored);
    } else if (k === 'deliveryMode') {
      const problem = typeof v === 'string' && faultOn(state, 'bounds.delivery-mode-any-string') ? null : enumOf('none', 'emotion_tagging', 'expressive')(v, state);
      if (problem) c.fail(p, problem);
      else next[k] = v;
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

/**
 * §2.5: `null` clears the document; an object must use only the two known keys with boolean
 * values and is deep-merged into the stored one. Faults: `merge.transfer-settings-replace`
 * (replaced instead), `merge.transfer-settings-null-ignored` (null leaves the stored document),
 * `bounds.transfer-settings-unknown-key` (an unknown key is stored as sent).
 */
export function mergeTransferSettings(state: SimState, c: Checker, stored: unknown, patch: unknown): Obj | null {
  const path = 'transferSettings';
  if (patch === null) {
    return faultOn(state, 'merge.transfer-settings-null-ignored') && isPlainObject(stored) ? stored : null;
  }
  if (!isPlainObject(patch)) {
    c.fail(path, 'must be an object or null');
    return null;
  }
  let bad = false;
  for (const [k, v] of Object.entries(patch)) {
    if (!(TRANSFER_SETTINGS_KEYS as readonly string[]).includes(k)) {
      if (faultOn(state, 'bounds.transfer-settings-unknown-key')) continue;
      c.fail(`${path}.${k}`, `unknown key; allowed: ${TRANSFER_SETTINGS_KEYS.join(', ')}`);
      bad = true;
    } else if (typeof v !== 'boolean' && !(typeof v === 'string' && faultOn(state, 'bounds.transfer-settings-string-values'))) {
      c.fail(`${path}.${k}`, 'must be a boolean');
      bad = true;
    }
  }
  if (bad) return null;
  if (faultOn(state, 'merge.transfer-settings-replace')) return { ...patch };
  return { ...(isPlainObject(stored) ? stored : {}), ...patch };
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
 * §2.6: `null` clears; an object replaces the stored document (replace semantics). Items of
 * `sttKeyterms` need a string `term`; items of `ttsPronunciations` need a string `word` and at
 * least one non-empty `phonemes` or `respell`; `language` is normalized. Unknown keys are kept.
 * Faults: `merge.dictionary-settings-null-ignored`, `merge.dictionary-settings-merged` (top-level
 * keys merged into `stored`), `bounds.language-name`, `bounds.regional-locale-kept`,
 * `bounds.pronunciation-neither`.
 */
export function replaceDictionarySettings(state: SimState, c: Checker, stored: unknown, patch: unknown): Obj | null {
  const path = 'dictionarySettings';
  if (patch === null) {
    return faultOn(state, 'merge.dictionary-settings-null-ignored') && isPlainObject(stored) ? stored : null;
  }
  if (!isPlainObject(patch)) {
    c.fail(path, 'must be an object or null');
    return null;
  }
  const next: Obj = { ...patch };
  const items = (key: string, each: (item: Obj, p: string) => Obj | null): void => {
    if (!(key in patch)) return;
    const list = patch[key];
    if (!Array.isArray(list)) {
      c.fail(`${path}.${key}`, 'must be an array');
      return;
    }
    next[key] = list.map((item, i) => {
      const p = `${path}.${key}[${i}]`;
      if (!isPlainObject(item)) {
        c.fail(p, 'must be an object');
        return item;
      }
      return each(item, p) ?? item;
    });
  };
  const language = (item: Obj, p: string, out: Obj): boolean => {
    const v = item.language;
    if (v === null && faultOn(state, 'bounds.language-null-refused')) {
      c.fail(`${p}.language`, 'must be one of the listed codes');
      return false;
    }
    // Fault: only the first item's language is checked; later ones are stored as sent.
    if (!p.endsWith('[0]') && faultOn(state, 'bounds.language-first-item-only')) {
      if (v !== undefined) out.language = v;
      return true;
    }
    const lang = normalizeDictionaryLanguage(v);
    if (lang === undefined && typeof v === 'string' && /^[A-Za-z]{3,}$/.test(v) && faultOn(state, 'bounds.language-name')) {
      out.language = v;
      return true;
    }
    if (lang && typeof v === 'string' && /[-_]/.test(v) && faultOn(state, 'bounds.regional-locale-kept')) {
      out.language = v;
      return true;
    }
    if (lang === undefined) {
      c.fail(`${p}.language`, `must be null or one of ${DICTIONARY_LANGUAGES.join(', ')} (a regional locale is stored as its base code)`);
      return false;
    }
    out.language = lang;
    return true;
  };
  items('sttKeyterms', (item, p) => {
    const out: Obj = { ...item };
    const anyTerm = item.term !== undefined && faultOn(state, 'bounds.keyterm-term-any-type');
    let good = c.check(`${p}.term`, anyTerm || (typeof item.term === 'string' && item.term !== ''), 'must be a non-empty string');
    good = language(item, p, out) && good;
    return good ? out : null;
  });
  items('ttsPronunciations', (item, p) => {
    const out: Obj = { ...item };
    let good = c.check(`${p}.word`, typeof item.word === 'string' && item.word !== '', 'must be a non-empty string');
    for (const k of ['respell', 'phonemes']) {
      if (item[k] !== undefined && item[k] !== null && typeof item[k] !== 'string') {
        c.fail(`${p}.${k}`, 'must be a string');
        good = false;
      }
    }
    const has = (k: string) => typeof item[k] === 'string' && (item[k] as string).trim() !== '';
    const firstOnly = !p.endsWith('[0]') && faultOn(state, 'bounds.pronunciation-first-item-only');
    if (!has('respell') && !has('phonemes') && !faultOn(state, 'bounds.pronunciation-neither') && !firstOnly) {
      c.fail(p, 'needs at least one of phonemes and respell');
      good = false;
    }
    good = language(item, p, out) && good;
    return good ? out : null;
  });
  if (faultOn(state, 'merge.dictionary-settings-merged') && isPlainObject(stored)) return { ...stored, ...next };
  return next;
}

/**
 * Deep merge of §2.7: objects merge key by key at every depth, a key sent as `null` is deleted
 * (fault `merge.ivr-null-key-kept`: stored as null), anything else (arrays too) replaces.
 */
export function deepMergeDeletingNulls(state: SimState, stored: unknown, patch: Obj): Obj {
  const next: Obj = isPlainObject(stored) ? { ...stored } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) {
      if (faultOn(state, 'merge.ivr-null-key-kept')) next[k] = null;
      else delete next[k];
    } else if (isPlainObject(v)) {
      next[k] = deepMergeDeletingNulls(state, next[k], v);
    } else {
      next[k] = v;
    }
  }
  return next;
}

/**
 * §2.7: `null` clears; an object deep-merges per key (no inner structure validated). Faults:
 * `merge.ivr-null-ignored` (null leaves the stored document), `merge.ivr-replace` (the object
 * replaces the stored document; null keys still dropped).
 */
export function mergeIvrSettings(state: SimState, c: Checker, stored: unknown, patch: unknown): Obj | null {
  if (patch === null) return faultOn(state, 'merge.ivr-null-ignored') && isPlainObject(stored) ? stored : null;
  if (!isPlainObject(patch)) {
    c.fail('ivrSettings', 'must be an object or null');
    return null;
  }
  let sent: Obj = patch;
  // Faults: inner keys other than ivrMode dropped (the document validated after all), or
  // ivrMode false dropped as if it were the default.
  if (faultOn(state, 'merge.ivr-unknown-keys-dropped')) sent = 'ivrMode' in patch ? { ivrMode: patch.ivrMode } : {};
  if (sent.ivrMode === false && faultOn(state, 'merge.ivr-mode-false-dropped')) {
    const { ivrMode: _false, ...rest } = sent;
    sent = rest;
  }
  return deepMergeDeletingNulls(state, faultOn(state, 'merge.ivr-replace') ? {} : stored, sent);
}
