/**
 * The assistant resource (§2.2–§2.7, §8): defaults for a new one, and `applyAssistantInput`,
 * which validates a POST/PATCH body by hand and computes the next stored object. A rejected body
 * changes nothing and lists every failing field.
 */
import { COERCION_FAULTS, EDGE_FAULTS } from '../faults-gaps.ts';
import { faultOn } from '../faults.ts';
import type { SimState } from '../state.ts';
import { Checker } from '../validation/checker.ts';
import { isE164, isPlainObject, isUuid, readIntegerLike } from '../validation/formats.ts';
import { serverUrlProblem } from '../validation/server-url.ts';
import {
  mergeConversationConfig,
  mergeIvrSettings,
  mergeTransferSettings,
  replaceDictionarySettings,
} from '../validation/settings.ts';

type Obj = Record<string, unknown>;

/** The 42 response properties of §2.2, in spec order. */
export const ASSISTANT_PROPERTIES = [
  'id', 'name', 'firstMessage', 'voiceId', 'transcriberId', 'modelId', 'developerPrompt', 'parameters',
  'recordingEnabled', 'failoverNumber', 'failoverMode', 'phoneNumberId', 'createdAt', 'updatedAt', 'toolIds',
  'timezone', 'address', 'endOfCallMessage', 'phoneNumberPassThrough', 'summaryPrompt', 'structuredDataPrompt',
  'categories', 'promptId', 'chatPromptId', 'whisperSummaryPromptId', 'voicePersonaPromptId', 'backgroundSound',
  'serverUrl', 'notifications', 'csatFeedback', 'idleMessages', 'transferMode', 'callTimeLimitSeconds',
  'idleTimeoutSeconds', 'idleMessageMaxSpokenCount', 'settings', 'taskDrivenMode', 'transferSettings',
  'dictionaryIds', 'dictionarySettings', 'ivrSettings', 'featureFlags',
] as const;

/** transferMode values (§2.2), matched exactly and case-sensitively. */
export const TRANSFER_MODES = ['cold-transfer', 'smart-summary', 'warm-return'] as const;

/** Maximum length of warmReturnMessage (§2.2, §8). */
export const WARM_RETURN_MESSAGE_MAX = 2000;

/**
 * Fault switch points that move one end of an integer bound (§2.2, §8): field → faults, each with
 * the bound it puts in place of the spec's.
 */
const BOUND_FAULTS: Record<string, { fault: string; min?: number; max?: number }[]> = {
  callTimeLimitSeconds: [
    { fault: 'bounds.call-time-limit-9', min: 9 },
    { fault: 'bounds.call-time-limit-43201', max: 43201 },
  ],
  idleTimeoutSeconds: [
    { fault: 'bounds.idle-timeout-61', max: 61 },
    { fault: 'bounds.idle-timeout-minus-1', min: -1 },
  ],
  idleMessageMaxSpokenCount: [{ fault: 'bounds.idle-message-count-11', max: 11 }],
  transferDialTimeout: [
    { fault: 'bounds.transfer-dial-timeout-0', min: 0 },
    { fault: 'bounds.transfer-dial-timeout-61', max: 61 },
  ],
  warmWhisperDelaySeconds: [{ fault: 'bounds.warm-whisper-31', max: 31 }],
};

/** Integer fields with bounds (§2.2, §8): [min, max, nullable]. */
const INTEGER_FIELDS: Record<string, [number, number, boolean]> = {
  callTimeLimitSeconds: [10, 43200, true],
  idleTimeoutSeconds: [0, 60, false],
  idleMessageMaxSpokenCount: [0, 10, false],
};

/** Integer fields merged into `settings` (§2.2): [min, max]. */
const SETTINGS_INTEGER_FIELDS: Record<string, [number, number]> = {
  transferDialTimeout: [1, 60],
  warmWhisperDelaySeconds: [0, 30],
};

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

/** Whether a coercion fault of faults-gaps.ts makes `field` accept `v` although its rule refuses it. */
function coercionAccepts(state: SimState, field: string, v: unknown): boolean {
  for (const [fault, f] of Object.entries(COERCION_FAULTS)) {
    if (f !== field || !faultOn(state, fault)) continue;
    switch (fault) {
      case 'bounds.boolean-string-accepted':
        return v === 'true' || v === 'false';
      case 'bounds.boolean-number-accepted':
        return v === 0 || v === 1;
      case 'bounds.number-for-string-accepted':
        return typeof v === 'number';
      case 'bounds.uuid-any-string':
        return typeof v === 'string';
      case 'bounds.e164-without-plus':
        return typeof v === 'string' && /^[1-9]\d{6,14}$/.test(v);
      case 'bounds.categories-non-strings':
        return Array.isArray(v);
      case 'bounds.null-for-string-accepted':
        return v === null;
    }
  }
  return false;
}

/** The timezone rule under the faults of faults-gaps.ts: any string accepted, or only Region/City names. */
function timezoneProblem(state: SimState, v: unknown, problem: string | null): string | null {
  if (faultOn(state, 'bounds.timezone-any-string') && typeof v === 'string') return null;
  if (!problem && faultOn(state, 'bounds.timezone-region-city-only') && !/^[A-Za-z]+\/[A-Za-z_-]+$/.test(String(v))) return 'must be a Region/City zone name';
  return problem;
}

function isTimeZone(v: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: v });
    return true;
  } catch {
    return false;
  }
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
 * Plain fields: stored as sent once their rule passes. The request types are read literally:
 * `null` is accepted only where §2.2 says "or null" (chatPromptId, whisperSummaryPromptId,
 * voicePersonaPromptId; serverUrl, callTimeLimitSeconds and the three documents are handled
 * separately).
 */
const PLAIN: Record<string, Rule> = {
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
  // (faults bounds.timezone-* are applied in applyAssistantInput, which knows the state)
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
};

/**
 * Reads an "integer or integer string" field (§2.2) bounded by [min, max] (the spec's bounds,
 * moved by any BOUND_FAULTS entry switched on). Records a failure on `c` under `path` and returns
 * undefined when the value is refused; otherwise returns the number to store. Faults:
 * `bounds.integer-string-unbounded` (a string skips the bounds), `bounds.non-integer-accepted`
 * (a finite non-integer number is read as itself).
 */
function readBoundedInteger(
  state: SimState,
  c: Checker,
  path: string,
  field: string,
  v: unknown,
  min: number,
  max: number,
  suffix = '',
): number | undefined {
  const specMin = min;
  const specMax = max;
  for (const b of [...(BOUND_FAULTS[field] ?? []), ...(EDGE_FAULTS[field] ?? [])]) {
    if (!faultOn(state, b.fault)) continue;
    if (b.min !== undefined) min = b.min;
    if (b.max !== undefined) max = b.max;
  }
  let n = readIntegerLike(v);
  if (n === null && typeof v === 'number' && Number.isFinite(v) && faultOn(state, 'bounds.non-integer-accepted')) n = v;
  if (n === null) {
    if (faultOn(state, 'validation.details-per-rule')) {
      // Fault: a union validator with every error on reports each failed branch as an entry.
      c.errors.push({ field: path, message: `must be an integer from ${specMin} to ${specMax}` }, { field: path, message: 'must be a string of digits' });
      return undefined;
    }
    c.fail(path, `must be an integer or an integer string from ${specMin} to ${specMax}${suffix}`);
    return undefined;
  }
  if (typeof v === 'string' && faultOn(state, 'bounds.integer-string-unbounded')) return n;
  if (n < min || n > max) {
    c.fail(path, `must be from ${specMin} to ${specMax}${suffix}`);
    return undefined;
  }
  return n;
}

/**
 * Length of a text limited in characters (§8): UTF-16 code units, which equal characters for the
 * texts the limits are judged on; in UTF-8 bytes under the fault `fault` (a units mistake).
 */
export function textLength(state: SimState, fault: string, v: string): number {
  return faultOn(state, fault) ? Buffer.byteLength(v, 'utf8') : v.length;
}

/**
 * Longest accepted warmReturnMessage: §8's 2000, or 2001 with fault `bounds.warm-return-2001`, or
 * 1999 with `bounds.warm-return-refuses-2000`.
 */
function warmReturnMax(state: SimState): number {
  if (faultOn(state, 'bounds.warm-return-refuses-2000')) return WARM_RETURN_MESSAGE_MAX - 1;
  return faultOn(state, 'bounds.warm-return-2001') ? WARM_RETURN_MESSAGE_MAX + 1 : WARM_RETURN_MESSAGE_MAX;
}

/** Fields merged into `settings` (§2.2) and the fault that makes each one clobber the container. */
const SETTINGS_CLOBBER_FAULTS: Record<string, string> = {
  transferDialTimeout: 'merge.settings-clobbered',
  warmWhisperDelaySeconds: 'merge.warm-whisper-clobbers',
  warmReturnMessage: 'merge.warm-return-clobbers',
};

/** Top-level property that a failing `details[].field` belongs to (fields merged into settings → settings). */
function propertyOfField(field: string): string {
  const top = field.split(/[.[]/)[0];
  return top in SETTINGS_CLOBBER_FAULTS ? 'settings' : top;
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
    } else if (k in SETTINGS_INTEGER_FIELDS) {
      const [min, max] = SETTINGS_INTEGER_FIELDS[k];
      const n = readBoundedInteger(state, c, p, k, v, min, max);
      if (n !== undefined) next[k] = n;
    } else if (k === 'warmReturnMessage') {
      if (typeof v !== 'string' || textLength(state, 'bounds.warm-return-counts-bytes', v) > warmReturnMax(state)) {
        c.fail(p, `must be a string of at most ${WARM_RETURN_MESSAGE_MAX} characters`);
      } else next[k] = v;
    } else {
      next[k] = v;
    }
  }
  return next;
}

/**
 * Validates a POST/PATCH body against §2.2–§2.7 and §8 and returns the next stored object built
 * from `current` (which is not modified, except under fault `validation.partial-apply`). Unknown
 * and read-only fields (id, createdAt, updatedAt, featureFlags) are ignored; omitted fields stay
 * unchanged. Fault switch points of the bounds/merge/validation areas are marked `faultOn`.
 *
 * Throws ApiError 400 VALIDATION_ERROR listing every failing field (field `body` when the body is
 * not a JSON object).
 */
export function applyAssistantInput(state: SimState, current: Obj, body: unknown, now: string): Obj {
  const c = new Checker();
  if (body === undefined) body = {};
  if (!isPlainObject(body)) {
    c.fail('body', 'must be a JSON object');
    c.throwIfAny();
  }
  const input = body as Obj;
  const next: Obj = structuredClone(current);
  const has = (k: string) => Object.prototype.hasOwnProperty.call(input, k) && input[k] !== undefined;

  for (const [k, rule] of Object.entries(PLAIN)) {
    if (!has(k)) continue;
    if (input[k] === null && k.endsWith('PromptId') && faultOn(state, 'prompts.link-null-ignored')) continue;
    let problem = rule(input[k]);
    if (k === 'timezone') problem = timezoneProblem(state, input[k], problem);
    if (problem && coercionAccepts(state, k, input[k])) problem = null;
    if (problem) c.fail(k, problem);
    else if (k === 'categories' && Array.isArray(next.categories) && faultOn(state, 'merge.replay-drift')) {
      next.categories = [...next.categories, ...(input.categories as string[])];
    } else next[k] = structuredClone(input[k]);
  }
  if (!has('idleMessages') && faultOn(state, 'merge.omitted-reset')) next.idleMessages = [];

  // Replace-the-set lists (§2.2): toolIds and dictionaryIds; [] unlinks all.
  for (const k of ['toolIds', 'dictionaryIds']) {
    if (!has(k)) continue;
    const v = input[k];
    // Fault: only the first toolIds item is checked to be a uuid.
    const checked = Array.isArray(v) && k === 'toolIds' && faultOn(state, 'bounds.tool-ids-first-item-only') ? v.slice(0, 1) : v;
    if (!Array.isArray(v) || !(checked as unknown[]).every(isUuid)) {
      c.fail(k, 'must be an array of uuid strings');
      continue;
    }
    if (k === 'toolIds' && v.length === 0 && faultOn(state, 'merge.tool-ids-empty-ignored')) continue;
    if (k === 'dictionaryIds' && v.length === 0 && faultOn(state, 'merge.dictionary-ids-empty-ignored')) continue;
    const union = k === 'toolIds' && v.length > 0 && Array.isArray(next.toolIds) && faultOn(state, 'merge.tool-ids-union');
    next[k] = [...new Set([...(union ? (next.toolIds as string[]) : []), ...(v as string[])])];
  }

  if (has('transferMode')) {
    const v = input.transferMode;
    let mode: string | undefined;
    if (typeof v === 'string') {
      if ((TRANSFER_MODES as readonly string[]).includes(v)) mode = v;
      else if (faultOn(state, 'bounds.transfer-mode-case-insensitive')) {
        mode = TRANSFER_MODES.find((m) => m === v.toLowerCase());
      }
    }
    if (mode === undefined) c.fail('transferMode', `must be exactly one of ${TRANSFER_MODES.join(', ')}`);
    else next.transferMode = mode;
  }

  for (const [k, [min, max, nullable]] of Object.entries(INTEGER_FIELDS)) {
    if (!has(k)) continue;
    const v = input[k];
    if (v === null && nullable) {
      next[k] = null;
      continue;
    }
    const n = readBoundedInteger(state, c, k, k, v, min, max, nullable ? ' (or null for no limit)' : '');
    if (n !== undefined) next[k] = n;
  }

  if (has('serverUrl')) {
    const problem = serverUrlProblem(state, input.serverUrl);
    if (problem) c.fail('serverUrl', problem);
    else next.serverUrl = input.serverUrl;
  }

  // settings container and the fields merged into it.
  if (has('settings')) {
    const v = input.settings;
    if (!isPlainObject(v)) c.fail('settings', 'must be an object');
    else next.settings = mergeSettings(state, c, next.settings, v);
  }
  const settingsAdds: Obj = {};
  for (const [k, [min, max]] of Object.entries(SETTINGS_INTEGER_FIELDS)) {
    if (!has(k)) continue;
    const n = readBoundedInteger(state, c, k, k, input[k], min, max);
    if (n !== undefined) settingsAdds[k] = n;
  }
  if (has('warmReturnMessage')) {
    const v = input.warmReturnMessage;
    // '' is stored as '' and means "use the built-in wording" (§2.2).
    if (typeof v !== 'string' || textLength(state, 'bounds.warm-return-counts-bytes', v) > warmReturnMax(state)) {
      c.fail('warmReturnMessage', `must be a string of at most ${WARM_RETURN_MESSAGE_MAX} characters`);
    } else settingsAdds.warmReturnMessage = v;
  }
  if (Object.keys(settingsAdds).length) {
    const clobber = Object.entries(SETTINGS_CLOBBER_FAULTS).some(([k, f]) => k in settingsAdds && faultOn(state, f));
    if (clobber) {
      next.settings = { ...settingsAdds };
    } else {
      next.settings = { ...(isPlainObject(next.settings) ? next.settings : {}), ...settingsAdds };
    }
  }

  if (has('transferSettings')) {
    next.transferSettings = mergeTransferSettings(state, c, next.transferSettings, input.transferSettings);
  }
  if (has('dictionarySettings')) {
    next.dictionarySettings = replaceDictionarySettings(state, c, next.dictionarySettings, input.dictionarySettings);
  }
  if (!has('ivrSettings') && faultOn(state, 'merge.ivr-omitted-cleared')) next.ivrSettings = null;
  if (has('ivrSettings')) {
    next.ivrSettings = mergeIvrSettings(state, c, next.ivrSettings, input.ivrSettings);
  }

  if (!c.ok && faultOn(state, 'validation.partial-apply')) {
    // Fault: the refused request still stores every property none of its failing fields touch.
    const failed = new Set(c.errors.map((e) => propertyOfField(e.field)));
    let changed = false;
    for (const k of ASSISTANT_PROPERTIES) {
      if (failed.has(k) || JSON.stringify(current[k]) === JSON.stringify(next[k])) continue;
      current[k] = next[k];
      changed = true;
    }
    if (changed) current.updatedAt = now;
  }
  if (faultOn(state, 'validation.details-first-only')) c.errors.splice(1);
  c.throwIfAny();
  next.updatedAt = now;
  return next;
}

/** The response object of an assistant: a deep copy of exactly the 42 §2.2 properties. */
export function assistantResponse(data: Obj): Obj {
  const out: Obj = {};
  for (const k of ASSISTANT_PROPERTIES) out[k] = structuredClone(data[k] ?? null);
  return out;
}
