/**
 * An executable model of the PATCH /assistants/{id} merge rules (§2.2, §2.5-§2.7, §4.1), for the
 * model-based property test (suites/merge-model.test.ts): random valid PATCHes are applied to the
 * target and to this model, and after each step the target's GET must equal the model on every
 * modelled field. Pure functions plus the fast-check arbitrary of a valid PATCH.
 */
import fc from 'fast-check';
import { isDeepStrictEqual } from 'node:util';
import { ABSENT, describeActual, getAt, readingHolds, type ClearedReading } from './paths';

/** The modelled part of an assistant. `null` on a document means "cleared" (GET may show null, {} or no key). */
export interface MergeModel {
  firstMessage: string;
  /** §2.2, §2.3: the per-assistant webhook URL; null when cleared. */
  serverUrl: string | null;
  /** §2.2 string arrays, replaced whole by a PATCH that names them. */
  categories: string[];
  idleMessages: string[];
  transferMode: string;
  /** Seconds (§2.2), stored as a number. */
  idleTimeoutSeconds: number;
  /** Seconds; null = no limit. */
  callTimeLimitSeconds: number | null;
  transferSettings: Record<string, boolean> | null;
  ivrSettings: Record<string, unknown> | null;
  dictionarySettings: Record<string, unknown> | null;
  /** settings keys written through the merged-into fields, plus the baseline conversationConfig. */
  settings: { transferDialTimeout: number; warmWhisperDelaySeconds: number; warmReturnMessage: string; conversationConfig: Record<string, unknown> };
}

/** A valid PATCH body over the modelled fields (every member optional). */
export type ModelPatch = Partial<{
  firstMessage: string;
  serverUrl: string | null;
  categories: string[];
  idleMessages: string[];
  transferMode: string;
  idleTimeoutSeconds: number | string;
  callTimeLimitSeconds: number | string | null;
  transferSettings: Record<string, boolean> | null;
  ivrSettings: Record<string, unknown> | null;
  dictionarySettings: Record<string, unknown> | null;
  transferDialTimeout: number | string;
  warmWhisperDelaySeconds: number | string;
  warmReturnMessage: string;
}>;

/** Clause ids each modelled field proves. */
export const FIELD_CLAUSES: Record<string, string[]> = {
  firstMessage: ['4.1/omitted-unchanged', '4.1/value-reads-back-exactly'],
  serverUrl: ['4.1/omitted-unchanged', '2.3/public-name-accepted', '2.3/null-clears'],
  categories: ['4.1/omitted-unchanged', '8/patch-replay-converges'],
  idleMessages: ['4.1/omitted-unchanged', '8/patch-replay-converges'],
  transferMode: ['4.1/omitted-unchanged', '2.2/transfer-mode-enum'],
  idleTimeoutSeconds: ['4.1/omitted-unchanged', '2.2/integer-string-accepted'],
  callTimeLimitSeconds: ['4.1/omitted-unchanged', '2.2/call-time-limit-null'],
  transferSettings: ['2.5/deep-merge', '2.5/null-clears'],
  ivrSettings: ['2.7/deep-merge-per-key', '2.7/null-key-deleted', '2.7/null-clears', '2.7/omitted-unchanged'],
  dictionarySettings: ['2.6/replace', '2.6/null-clears', '2.6/regional-locale-base-code'],
  'settings.transferDialTimeout': ['2.2/transfer-dial-timeout-merged-into-settings'],
  'settings.warmWhisperDelaySeconds': ['2.2/warm-whisper-delay-merged-into-settings'],
  'settings.warmReturnMessage': ['2.2/warm-return-message-merged-into-settings', '4.1/value-reads-back-exactly'],
  'settings.conversationConfig': [
    '2.2/transfer-dial-timeout-merged-into-settings',
    '2.2/warm-whisper-delay-merged-into-settings',
    '2.2/warm-return-message-merged-into-settings',
  ],
};

/** Every clause the model proves. */
export const MODEL_CLAUSES = [...new Set(Object.values(FIELD_CLAUSES).flat())];

/** The PATCHes that put an assistant in the model's starting state: settings first, then the rest. */
export const BASELINE_PATCHES: Record<string, unknown>[] = [
  { settings: { conversationConfig: { deliveryMode: 'none' } } },
  {
    firstMessage: 'model start',
    serverUrl: null,
    categories: [],
    idleMessages: [],
    transferMode: 'cold-transfer',
    idleTimeoutSeconds: 10,
    callTimeLimitSeconds: null,
    transferSettings: null,
    ivrSettings: null,
    dictionarySettings: null,
    transferDialTimeout: 30,
    warmWhisperDelaySeconds: 0,
    warmReturnMessage: 'Model start.',
  },
];

/** The model's state after {@link BASELINE_PATCHES}: their values, the merged-into fields under `settings`. */
export function initialModel(): MergeModel {
  const [{ settings }, rest] = BASELINE_PATCHES as [{ settings: { conversationConfig: unknown } }, Record<string, unknown>];
  const { transferDialTimeout, warmWhisperDelaySeconds, warmReturnMessage, ...top } = rest;
  return structuredClone({
    ...top,
    settings: { transferDialTimeout, warmWhisperDelaySeconds, warmReturnMessage, conversationConfig: settings.conversationConfig },
  }) as MergeModel;
}

function baseCode(lang: unknown): unknown {
  return typeof lang === 'string' && lang.includes('-') ? lang.split('-')[0] : lang;
}

/** §2.6: a dictionarySettings document as stored (replace; regional locale → base code; omitted language ≡ null; absent list ≡ []). */
export function normaliseDictionary(doc: unknown): Record<string, unknown[]> | null {
  if (doc === null || doc === undefined || doc === ABSENT) return null;
  const d = doc as Record<string, unknown>;
  const items = (list: unknown) =>
    (Array.isArray(list) ? list : []).map((i: Record<string, unknown> | null | undefined) => {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(i ?? {})) if (k !== 'language' && v !== undefined) out[k] = v;
      out.language = baseCode(i?.language ?? null);
      return out;
    });
  return { sttKeyterms: items(d.sttKeyterms), ttsPronunciations: items(d.ttsPronunciations) };
}

/** Applies one PATCH to the model (returns a new model): scalars replace, transferSettings deep-merges, ivrSettings merges per key with null deleting, dictionarySettings replaces, null clears documents, merged-into fields land in settings. */
export function applyPatch(model: MergeModel, patch: ModelPatch): MergeModel {
  const m: MergeModel = structuredClone(model);
  if (patch.firstMessage !== undefined) m.firstMessage = patch.firstMessage;
  if (patch.serverUrl !== undefined) m.serverUrl = patch.serverUrl;
  if (patch.categories !== undefined) m.categories = [...patch.categories];
  if (patch.idleMessages !== undefined) m.idleMessages = [...patch.idleMessages];
  if (patch.transferMode !== undefined) m.transferMode = patch.transferMode;
  if (patch.idleTimeoutSeconds !== undefined) m.idleTimeoutSeconds = Number(patch.idleTimeoutSeconds);
  if (patch.callTimeLimitSeconds !== undefined) m.callTimeLimitSeconds = patch.callTimeLimitSeconds === null ? null : Number(patch.callTimeLimitSeconds);
  if (patch.transferSettings !== undefined)
    m.transferSettings = patch.transferSettings === null ? null : { ...(m.transferSettings ?? {}), ...patch.transferSettings };
  if (patch.ivrSettings !== undefined) {
    if (patch.ivrSettings === null) m.ivrSettings = null;
    else {
      const next: Record<string, unknown> = { ...(m.ivrSettings ?? {}) };
      for (const [k, v] of Object.entries(patch.ivrSettings)) {
        if (v === null) delete next[k];
        else next[k] = v;
      }
      m.ivrSettings = next;
    }
  }
  if (patch.dictionarySettings !== undefined) m.dictionarySettings = patch.dictionarySettings === null ? null : structuredClone(patch.dictionarySettings);
  if (patch.transferDialTimeout !== undefined) m.settings.transferDialTimeout = Number(patch.transferDialTimeout);
  if (patch.warmWhisperDelaySeconds !== undefined) m.settings.warmWhisperDelaySeconds = Number(patch.warmWhisperDelaySeconds);
  if (patch.warmReturnMessage !== undefined) m.settings.warmReturnMessage = patch.warmReturnMessage;
  return m;
}

/** One field where the target differs from the model. */
export interface Mismatch {
  field: string;
  expected: string;
  actual: string;
  clauses: string[];
}

const CLEARED: ClearedReading[] = ['null', 'absent', 'empty-object'];
/** §2.5 defaults a target may show for a key never set: amd_detection on, use_assistant_number false. */
const TRANSFER_DEFAULTS: Record<string, boolean> = { amd_detection: true, use_assistant_number: false };

/**
 * Compares a GET `data` object with the model on every modelled field.
 * @returns the mismatches (empty when the target agrees)
 */
export function compareWithModel(model: MergeModel, data: unknown): Mismatch[] {
  const out: Mismatch[] = [];
  const miss = (field: string, expected: string, actualValue: unknown) =>
    out.push({ field, expected, actual: describeActual(actualValue), clauses: FIELD_CLAUSES[field] });
  const at = (path: string) => getAt(data, path.split('.'));

  for (const f of ['firstMessage', 'transferMode', 'serverUrl'] as const) if (!isDeepStrictEqual(at(f), model[f])) miss(f, JSON.stringify(model[f]), at(f));
  // An emptied list may read [] or null ("string array or null", §2.2).
  for (const f of ['categories', 'idleMessages'] as const) {
    const ok = model[f].length === 0 ? readingHolds({ kind: 'cleared', readings: ['empty-array', 'null'] }, at(f)) : isDeepStrictEqual(at(f), model[f]);
    if (!ok) miss(f, model[f].length === 0 ? '[] or null' : JSON.stringify(model[f]), at(f));
  }
  for (const f of ['idleTimeoutSeconds', 'callTimeLimitSeconds'] as const) {
    const want = model[f];
    const ok = want === null ? at(f) === null : readingHolds({ kind: 'numeric', value: want }, at(f));
    if (!ok) miss(f, want === null ? 'null' : `the number ${want}`, at(f));
  }

  const ts = at('transferSettings');
  if (model.transferSettings === null) {
    if (!readingHolds({ kind: 'cleared', readings: CLEARED }, ts)) miss('transferSettings', 'cleared (null, {} or absent)', ts);
  } else {
    const obj = ts && typeof ts === 'object' ? (ts as Record<string, unknown>) : undefined;
    const empty = Object.keys(model.transferSettings).length === 0 && readingHolds({ kind: 'cleared', readings: CLEARED }, ts);
    const ok =
      empty ||
      (!!obj &&
        Object.entries(model.transferSettings).every(([k, v]) => obj[k] === v) &&
        Object.keys(obj).every((k) => k in model.transferSettings! || obj[k] === TRANSFER_DEFAULTS[k]));
    if (!ok) miss('transferSettings', `${JSON.stringify(model.transferSettings)} (keys never set absent or at their §2.5 default)`, ts);
  }

  const ivr = at('ivrSettings');
  if (model.ivrSettings === null || Object.keys(model.ivrSettings).length === 0) {
    const ok = readingHolds({ kind: 'cleared', readings: CLEARED }, ivr);
    if (!ok) miss('ivrSettings', model.ivrSettings === null ? 'cleared (null, {} or absent)' : '{} (every key deleted)', ivr);
  } else if (!isDeepStrictEqual(ivr, model.ivrSettings)) {
    miss('ivrSettings', JSON.stringify(model.ivrSettings), ivr);
  }

  const dict = at('dictionarySettings');
  if (model.dictionarySettings === null) {
    if (!readingHolds({ kind: 'cleared', readings: CLEARED }, dict)) miss('dictionarySettings', 'cleared (null, {} or absent)', dict);
  } else if (!isDeepStrictEqual(normaliseDictionary(dict), normaliseDictionary(model.dictionarySettings))) {
    miss('dictionarySettings', JSON.stringify(normaliseDictionary(model.dictionarySettings)), dict);
  }

  for (const k of ['transferDialTimeout', 'warmWhisperDelaySeconds'] as const) {
    const v = at(`settings.${k}`);
    if (!readingHolds({ kind: 'numeric', value: model.settings[k] }, v)) miss(`settings.${k}`, `the number ${model.settings[k]}`, v);
  }
  if (at('settings.warmReturnMessage') !== model.settings.warmReturnMessage)
    miss('settings.warmReturnMessage', JSON.stringify(model.settings.warmReturnMessage), at('settings.warmReturnMessage'));
  const cc = at('settings.conversationConfig');
  if (!readingHolds({ kind: 'contains', value: model.settings.conversationConfig }, cc))
    miss('settings.conversationConfig', `containing ${JSON.stringify(model.settings.conversationConfig)}`, cc);
  return out;
}

const intOrString = (min: number, max: number) => fc.oneof(fc.integer({ min, max }), fc.integer({ min, max }).map(String));
/**
 * Text from the space people write in (Unicode graphemes: accents, scripts, emoji, spaces at
 * either end), `min` to `max` graphemes, not only the ASCII a hand-picked constant holds.
 */
const text = (min: number, max: number) => fc.string({ unit: 'grapheme', minLength: min, maxLength: max });
/**
 * A serverUrl on `host` (a name that resolves to a public address, helpers/generate/hosts.ts):
 * https, a path of a few segments, now and then a query string (§2.3: the path is kept).
 */
export function serverUrlArbitrary(host: string): fc.Arbitrary<string> {
  const segment = fc.stringMatching(/^[A-Za-z0-9._~-]{1,12}$/);
  const query = fc.option(fc.stringMatching(/^[a-z]{1,6}=[A-Za-z0-9]{1,8}$/), { nil: undefined });
  return fc.tuple(fc.array(segment, { maxLength: 3 }), query).map(([path, q]) => `https://${host}/${path.join('/')}${q ? `?${q}` : ''}`);
}
const language = fc.constantFrom('en', 'fr', 'de', 'ja', 'en-GB', null);
const keyterm = fc.record({ term: text(1, 20), language }, { requiredKeys: ['term'] });
const pronunciation = fc.oneof(
  fc.record({ word: fc.constantFrom('Acme', 'Quix'), respell: fc.constantFrom('ak-mee', 'kwix'), language }, { requiredKeys: ['word', 'respell'] }),
  fc.record({ word: fc.constantFrom('Acme', 'Quix'), phonemes: fc.constantFrom('æ k m i', 'k w ɪ k s') }),
);

/**
 * fast-check arbitrary of a valid PATCH over the modelled fields (at least one member; §2.2-§2.7
 * bounds and shapes). `host` resolves to a public address (serverUrl); without one serverUrl is
 * only ever cleared.
 */
export function patchArbitrary(host?: string): fc.Arbitrary<ModelPatch> {
  return fc
    .record(
      {
        firstMessage: text(1, 40),
        serverUrl: host ? fc.oneof(serverUrlArbitrary(host), fc.constant(null)) : fc.constant(null),
        categories: fc.array(text(1, 16), { maxLength: 3 }),
        idleMessages: fc.array(text(1, 30), { maxLength: 3 }),
        transferMode: fc.constantFrom('cold-transfer', 'smart-summary', 'warm-return'),
        idleTimeoutSeconds: intOrString(0, 60),
        callTimeLimitSeconds: fc.oneof(intOrString(10, 43200), fc.constant(null)),
        transferSettings: fc.oneof(fc.constant(null), fc.record({ amd_detection: fc.boolean(), use_assistant_number: fc.boolean() }, { requiredKeys: [] })),
        ivrSettings: fc.oneof(
          fc.constant(null),
          fc.record(
            {
              ivrMode: fc.oneof(fc.boolean(), fc.constant(null)),
              conformanceK1: fc.oneof(fc.constantFrom('a', 'b'), fc.constant(null)),
              conformanceK2: fc.oneof(fc.constantFrom('c', 'd'), fc.constant(null)),
            },
            { requiredKeys: [] },
          ),
        ),
        dictionarySettings: fc.oneof(
          fc.constant(null),
          fc.record(
            { sttKeyterms: fc.array(keyterm, { minLength: 1, maxLength: 2 }), ttsPronunciations: fc.array(pronunciation, { maxLength: 2 }) },
            { requiredKeys: ['sttKeyterms'] },
          ),
        ),
        transferDialTimeout: intOrString(1, 60),
        warmWhisperDelaySeconds: intOrString(0, 30),
        warmReturnMessage: text(1, 60),
      },
      { requiredKeys: [] },
    )
    .filter((p) => Object.keys(p).length > 0) as fc.Arbitrary<ModelPatch>;
}
