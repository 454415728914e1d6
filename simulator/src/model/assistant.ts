/**
 * The assistant resource (§2.2–§2.7, §8): defaults for a new one, and `applyAssistantInput`,
 * which validates a POST/PATCH body by hand and computes the next stored object. A rejected body
 * changes nothing and lists every failing field. Each rule, bound and merge is a seam
 * (validation/rules.ts, validation/settings.ts, model/merge.ts and the ones below).
 */
import { seam } from '../seam.ts';
import type { AssistantRecord, SimState } from '../state.ts';
import { Checker, unionRefusal, validationDetails } from '../validation/checker.ts';
import { isE164, isPlainObject, isUuid } from '../validation/formats.ts';
import { bound, enumValue, integerReading, SPEC_BOUNDS, textLength, type IntegerField } from '../validation/rules.ts';
import { serverUrlProblem } from '../validation/server-url.ts';
import { mergeConversationConfig, readDictionarySettings, readIvrSettings, readTransferSettings } from '../validation/settings.ts';
import { merge, settingsFields } from './merge.ts';

type Obj = Record<string, unknown>;

/** The 42 response properties of §2.2, in spec order. */
export const ASSISTANT_PROPERTIES = [
  'id',
  'name',
  'firstMessage',
  'voiceId',
  'transcriberId',
  'modelId',
  'developerPrompt',
  'parameters',
  'recordingEnabled',
  'failoverNumber',
  'failoverMode',
  'phoneNumberId',
  'createdAt',
  'updatedAt',
  'toolIds',
  'timezone',
  'address',
  'endOfCallMessage',
  'phoneNumberPassThrough',
  'summaryPrompt',
  'structuredDataPrompt',
  'categories',
  'promptId',
  'chatPromptId',
  'whisperSummaryPromptId',
  'voicePersonaPromptId',
  'backgroundSound',
  'serverUrl',
  'notifications',
  'csatFeedback',
  'idleMessages',
  'transferMode',
  'callTimeLimitSeconds',
  'idleTimeoutSeconds',
  'idleMessageMaxSpokenCount',
  'settings',
  'taskDrivenMode',
  'transferSettings',
  'dictionaryIds',
  'dictionarySettings',
  'ivrSettings',
  'featureFlags',
] as const;

/** transferMode values (§2.2), matched exactly and case-sensitively ({@link enumValue}). */
export const TRANSFER_MODES = ['cold-transfer', 'smart-summary', 'warm-return'] as const;

/** Maximum length of warmReturnMessage (§2.2, §8). */
export const WARM_RETURN_MESSAGE_MAX = SPEC_BOUNDS.warmReturnMessage.max;

/** Integer fields with bounds (§2.2, §8) and whether each takes null (no limit). */
const INTEGER_FIELDS: Partial<Record<IntegerField, { nullable: boolean }>> = {
  callTimeLimitSeconds: { nullable: true },
  idleTimeoutSeconds: { nullable: false },
  idleMessageMaxSpokenCount: { nullable: false },
};

/** Integer fields merged into `settings` (§2.2). */
const SETTINGS_INTEGER_FIELDS: readonly IntegerField[] = ['transferDialTimeout', 'warmWhisperDelaySeconds'];

/**
 * A new assistant with every one of the 42 properties: required nullable ones null, booleans
 * false, lists empty, transferMode `cold-transfer`, settings holding an empty conversationConfig
 * and warmWhisperDelaySeconds 0 (its documented default).
 */
export function defaultAssistant(id: string, now: string): Obj {
  return {
    id,
    name: 'New assistant',
    firstMessage: 'Hello, how can I help you today?',
    voiceId: null,
    transcriberId: null,
    modelId: null,
    developerPrompt: null,
    parameters: {},
    recordingEnabled: false,
    failoverNumber: null,
    failoverMode: false,
    phoneNumberId: null,
    createdAt: now,
    updatedAt: now,
    toolIds: [],
    timezone: 'UTC',
    address: null,
    endOfCallMessage: null,
    phoneNumberPassThrough: false,
    summaryPrompt: null,
    structuredDataPrompt: null,
    categories: null,
    promptId: null,
    chatPromptId: null,
    whisperSummaryPromptId: null,
    voicePersonaPromptId: null,
    backgroundSound: false,
    serverUrl: null,
    notifications: [],
    csatFeedback: false,
    idleMessages: [],
    transferMode: 'cold-transfer',
    callTimeLimitSeconds: null,
    idleTimeoutSeconds: null,
    idleMessageMaxSpokenCount: null,
    settings: { conversationConfig: {}, warmWhisperDelaySeconds: 0 },
    taskDrivenMode: false,
    transferSettings: null,
    dictionaryIds: [],
    dictionarySettings: null,
    ivrSettings: null,
    featureFlags: {},
  };
}

/** Names already judged: an `Intl.DateTimeFormat` costs about 0.2 ms to build, and the suites send the same few zones thousands of times. */
const zoneVerdicts = new Map<string, boolean>();

function isTimeZone(v: string): boolean {
  let ok = zoneVerdicts.get(v);
  if (ok === undefined) {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: v });
      ok = true;
    } catch {
      ok = false;
    }
    if (zoneVerdicts.size < 10_000) zoneVerdicts.set(v, ok);
  }
  return ok;
}

function isWebUrl(v: unknown): boolean {
  if (typeof v !== 'string') return false;
  try {
    const u = new URL(v);
    return u.protocol === 'https:' || u.protocol === 'http:';
  } catch {
    return false;
  }
}

type Rule = (v: unknown) => string | null;
const str: Rule = (v) => (typeof v === 'string' ? null : 'must be a string');
const bool: Rule = (v) => (typeof v === 'boolean' ? null : 'must be a boolean');
const uuid: Rule = (v) => (isUuid(v) ? null : 'must be a uuid string');
const uuidOrNull: Rule = (v) => (v === null || isUuid(v) ? null : 'must be a uuid string or null');
const arrayOf =
  (ok: (x: unknown) => boolean, what: string): Rule =>
  (v) =>
    Array.isArray(v) && v.every(ok) ? null : `must be an array of ${what}`;

/**
 * Plain fields and the replace-the-set lists: stored as sent (merged, {@link merge}) once their
 * rule passes. The request types are read literally: `null` is accepted only where §2.2 says "or
 * null" (chatPromptId, whisperSummaryPromptId, voicePersonaPromptId; serverUrl,
 * callTimeLimitSeconds and the three documents are handled separately). In this order the
 * failures are listed.
 */
const RULES: Record<string, Rule> = {
  name: str,
  firstMessage: str,
  voiceId: uuid,
  transcriberId: uuid,
  modelId: uuid,
  developerPrompt: str,
  parameters: (v) => (isPlainObject(v) ? null : 'must be a JSON object'),
  recordingEnabled: bool,
  failoverNumber: (v) => (isE164(v) ? null : 'must be an E.164 number such as +14155550123'),
  failoverMode: bool,
  phoneNumberId: uuid,
  timezone: (v) => (typeof v === 'string' && isTimeZone(v) ? null : 'must be a time zone name such as Europe/Paris'),
  address: str,
  endOfCallMessage: str,
  phoneNumberPassThrough: bool,
  summaryPrompt: str,
  structuredDataPrompt: str,
  categories: arrayOf((x) => typeof x === 'string', 'strings'),
  promptId: uuid,
  chatPromptId: uuidOrNull,
  whisperSummaryPromptId: uuidOrNull,
  voicePersonaPromptId: uuidOrNull,
  backgroundSound: bool,
  notifications: arrayOf(isWebUrl, 'webhook URLs'),
  csatFeedback: bool,
  idleMessages: arrayOf((x) => typeof x === 'string', 'strings'),
  taskDrivenMode: bool,
  // Replace-the-set lists (§2.2): toolIds and dictionaryIds; [] unlinks all.
  toolIds: arrayOf(isUuid, 'uuid strings'),
  dictionaryIds: arrayOf(isUuid, 'uuid strings'),
};

/** §2.2: the rule of a plain field or list (`RULES`): answers the refusal of `v`, or null. */
export const fieldRule = seam('bounds.field-rule', (field: string, v: unknown): string | null => RULES[field](v));

/**
 * Reads an "integer or integer string" field (§2.2) within its bound ({@link bound}). Records a
 * failure on `c` under `path` and returns undefined when the value is refused; otherwise returns
 * the number to store. The refusal states the spec's bound.
 */
/**
 * §2.2: what an accepted "integer or integer string" is stored as: the number it stands for (the
 * response type of the top-level integer fields is "number or null"), whatever form was sent.
 */
export const storedInteger = seam('bounds.stored-integer', (_field: IntegerField, _sent: unknown, n: number): number | string => n);

function readBoundedInteger(state: SimState, c: Checker, path: string, field: IntegerField, v: unknown, suffix = ''): number | string | undefined {
  const seams = state.behaviour;
  const spec = SPEC_BOUNDS[field];
  const n = seams.of(integerReading)(v);
  if (n === null) {
    const branches = [`must be an integer from ${spec.min} to ${spec.max}`, 'must be a string of digits'];
    c.failWith(seams.of(unionRefusal)(path, branches, `must be an integer or an integer string from ${spec.min} to ${spec.max}${suffix}`));
    return undefined;
  }
  const { min, max } = seams.of(bound)(field, v);
  if (n < min || n > max) {
    c.fail(path, `must be from ${spec.min} to ${spec.max}${suffix}`);
    return undefined;
  }
  return seams.of(storedInteger)(field, v, n);
}

/**
 * §4.1, §2.2: a string value as it is stored: exactly as written, characters outside the Basic
 * Multilingual Plane included (what a `utf8mb4` column keeps; a 3-byte `utf8` one would not).
 */
export const storedString = seam('assistants.stored-string', (v: string): string => v);

/** §2.2, §8: reads warmReturnMessage (at most 2000 characters; '' means the built-in wording). */
function readWarmReturnMessage(state: SimState, c: Checker, path: string, v: unknown): string | undefined {
  const seams = state.behaviour;
  if (typeof v === 'string' && seams.of(textLength)('warmReturnMessage', v) <= seams.of(bound)('warmReturnMessage', v).max) return seams.of(storedString)(v);
  c.fail(path, `must be a string of at most ${WARM_RETURN_MESSAGE_MAX} characters`);
  return undefined;
}

/** The fields §2.2 merges into `settings` when sent at the top level. */
const SETTINGS_FIELDS = ['transferDialTimeout', 'warmWhisperDelaySeconds', 'warmReturnMessage'];

/** Top-level property that a failing `details[].field` belongs to (fields merged into settings → settings). */
function propertyOfField(field: string): string {
  const top = field.split(/[.[]/)[0];
  return SETTINGS_FIELDS.includes(top) ? 'settings' : top;
}

/**
 * §2.2 settings container: merges a `settings` patch into the stored object. `conversationConfig`
 * follows §2.4; `transferDialTimeout`, `warmWhisperDelaySeconds` and `warmReturnMessage` sent
 * inside settings follow the same rules as at the top level; any other key is stored as sent and
 * `null` deletes it.
 */
function mergeSettings(state: SimState, c: Checker, stored: unknown, patch: Obj): Obj {
  const next: Obj = isPlainObject(stored) ? { ...stored } : {};
  for (const [k, v] of Object.entries(patch)) {
    const p = `settings.${k}`;
    if (v === null) {
      delete next[k];
    } else if (k === 'conversationConfig') {
      const cc = mergeConversationConfig(state, c, p, next[k], v);
      if (cc) next[k] = cc;
    } else if ((SETTINGS_INTEGER_FIELDS as readonly string[]).includes(k)) {
      const n = readBoundedInteger(state, c, p, k as IntegerField, v);
      if (n !== undefined) next[k] = n;
    } else if (k === 'warmReturnMessage') {
      const text = readWarmReturnMessage(state, c, p, v);
      if (text !== undefined) next[k] = text;
    } else {
      next[k] = v;
    }
  }
  return next;
}

/**
 * §4.1: a refused request changes nothing. Called with the stored object (`current`), the object
 * the request would have stored (`next`), the top-level properties its failures name
 * (`failed`) and the time of the request; the spec's reading leaves `current` as it is.
 */
export const refusedWrite = seam('validation.refused-write', (_current: Obj, _next: Obj, _failed: ReadonlySet<string>, _now: string): void => {});

/** One write in progress: the body sent (`input`), the object being built (`next`) and the checker collecting failures. */
interface AssistantWrite {
  state: SimState;
  c: Checker;
  input: Obj;
  next: Obj;
  /** Whether the body sends field `k` (present and not undefined). */
  has: (k: string) => boolean;
  /** Puts a valid value (undefined: the field was omitted) into `next` as the merge of its field says. */
  store: (k: string, valid: unknown) => void;
}

/** The top-level fields with a rule of their own: RULES, transferMode, the bounded integers and serverUrl. */
function applyTopLevelFields(w: AssistantWrite): void {
  const { state, c, input, has, store } = w;
  const seams = state.behaviour;
  for (const k of Object.keys(RULES)) {
    if (!has(k)) continue;
    const problem = seams.of(fieldRule)(k, input[k]);
    if (problem) c.fail(k, problem);
    else store(k, typeof input[k] === 'string' ? seams.of(storedString)(input[k]) : structuredClone(input[k]));
  }
  if (has('transferMode')) {
    const mode = seams.of(enumValue)('transferMode', input.transferMode, TRANSFER_MODES);
    if (mode === undefined) c.fail('transferMode', `must be exactly one of ${TRANSFER_MODES.join(', ')}`);
    else store('transferMode', mode);
  }
  for (const [k, { nullable }] of Object.entries(INTEGER_FIELDS) as [IntegerField, { nullable: boolean }][]) {
    if (!has(k)) continue;
    const v = input[k];
    if (v === null && nullable) {
      store(k, null);
      continue;
    }
    const n = readBoundedInteger(state, c, k, k, v, nullable ? ' (or null for no limit)' : '');
    if (n !== undefined) store(k, n);
  }
  if (has('serverUrl')) {
    const problem = serverUrlProblem(state, input.serverUrl);
    if (problem) c.fail('serverUrl', problem);
    else store('serverUrl', input.serverUrl);
  }
}

/** The settings container, and the top-level fields merged into it (bounded integers, warmReturnMessage). */
function applySettings(w: AssistantWrite): void {
  const { state, c, input, next, has } = w;
  if (has('settings')) {
    const v = input.settings;
    if (!isPlainObject(v)) c.fail('settings', 'must be an object');
    else next.settings = mergeSettings(state, c, next.settings, v);
  }
  const fields: Obj = {};
  for (const k of SETTINGS_INTEGER_FIELDS) {
    if (!has(k)) continue;
    const n = readBoundedInteger(state, c, k, k, input[k]);
    if (n !== undefined) fields[k] = n;
  }
  if (has('warmReturnMessage')) {
    const text = readWarmReturnMessage(state, c, 'warmReturnMessage', input.warmReturnMessage);
    if (text !== undefined) fields.warmReturnMessage = text;
  }
  if (Object.keys(fields).length) next.settings = state.behaviour.of(settingsFields)(next.settings, fields);
}

/** The documents of §2.5–§2.7: checked, then merged. */
function applyDocuments(w: AssistantWrite): void {
  const documents = [
    ['transferSettings', readTransferSettings],
    ['dictionarySettings', readDictionarySettings],
    ['ivrSettings', readIvrSettings],
  ] as const;
  for (const [k, read] of documents) {
    if (!w.has(k)) continue;
    const value = read(w.state, w.c, w.input[k]);
    if (value !== undefined) w.store(k, value);
  }
}

/**
 * Validates a POST/PATCH body against §2.2–§2.7 and §8 and returns the next stored object built
 * from `current` (which is not modified, see {@link refusedWrite}). Unknown and read-only fields
 * (id, createdAt, updatedAt, featureFlags) are ignored; omitted fields stay as {@link merge} says
 * (unchanged).
 *
 * Throws ApiError 400 VALIDATION_ERROR listing every failing field (field `body` when the body is
 * not a JSON object).
 */
export function applyAssistantInput(state: SimState, current: Obj, body: unknown, now: string): Obj {
  const seams = state.behaviour;
  const c = new Checker();
  const sent = body === undefined ? {} : body;
  if (!isPlainObject(sent)) {
    c.fail('body', 'must be a JSON object');
    c.throwIfAny();
  }
  const input = sent as Obj;
  const next: Obj = structuredClone(current);
  const has = (k: string) => Object.prototype.hasOwnProperty.call(input, k) && input[k] !== undefined;
  const store = (k: string, valid: unknown) => {
    const merged = seams.of(merge)(state, k, next[k], valid);
    if (merged !== next[k]) next[k] = merged;
  };
  const write: AssistantWrite = { state, c, input, next, has, store };

  // Omitted fields (§4.1).
  for (const k of ASSISTANT_PROPERTIES) if (!has(k)) store(k, undefined);
  applyTopLevelFields(write);
  applySettings(write);
  applyDocuments(write);

  if (!c.ok) seams.of(refusedWrite)(current, next, new Set(c.errors.map((e) => propertyOfField(e.field))), now);
  c.throwIfAny(seams.of(validationDetails));
  next.updatedAt = now;
  return next;
}

/**
 * §4.1: a PATCH of an assistant looks its id up (`lookUp`: the record, or throws 404) and
 * validates its body (`validate`: throws 400); the spec orders neither. The default reading
 * looks the id up first, so an unknown or foreign id answers 404 whatever the body.
 */
export const patchOrder = seam('assistants.patch-order', (lookUp: () => AssistantRecord, _validate: () => void): AssistantRecord => lookUp());

/** The response object of an assistant: a deep copy of exactly the 42 §2.2 properties. */
export function assistantResponse(data: Obj): Obj {
  const out: Obj = {};
  for (const k of ASSISTANT_PROPERTIES) {
    // Objects are copied (the stored one may change before the answer is serialised); other values are immutable.
    const v = data[k] ?? null;
    out[k] = typeof v === 'object' && v !== null ? structuredClone(v) : v;
  }
  return out;
}
