/**
 * The oracle's table: every request field the spec shows (§2.2 to §2.9, §4.3, §4.4, §4.5), one
 * row each, built from its node in schemas/ by the rules of helpers/generate/oracle-rules.ts.
 * `ORACLE` is the table; `oracleRow(operation, path)` finds a row. Where the schemas hold no
 * request node (§4.5 test suites, tool instructions, takeover), the row names its own clauses.
 */
import { citeFrom, nullRuleOf, schemaNodeAt, type FieldKind, type Operation, type OracleRow, type RowBuilder } from './oracle';
import {
  anyAcceptedRule,
  anyValueRule,
  booleanRule,
  e164Rule,
  enumRule,
  freeObjectRule,
  integerRule,
  languageRule,
  listRule,
  numberRule,
  objectRule,
  openRule,
  serverUrlRule,
  textRule,
  uuidRule,
  type Judge,
  type NullRule,
  type TextOptions,
} from './oracle-rules';

const PATCH = 'PATCH /assistants/{id}' as const;
const PATCH_REF = 'assistant.patch.request.json';
/** §2.2 notifications: a string array whose response type is "any" (an accepted list is not read). */
const notificationsList = { null: 'either' as const, empty: ['empty-array' as const], order: 'exact' as const, readsBack: false };

/** NANP, UK and French numbers every numbering-plan validator takes: the fictional ranges (555-01xx, Ofcom 020 7946 0xxx, ARCEP 01 99 00 xx xx). */
export const VALID_PLAN_NUMBERS: readonly RegExp[] = [/^\+1(212|312|415|617|202)55501[0-9]{2}$/, /^\+4420794600[0-9]{2}$/, /^\+3319900[0-9]{4}$/];

const text =
  (o: Partial<TextOptions> = {}): RowBuilder =>
  ({ node, cite, field }) => ({
    kind: 'text',
    max: node.maxLength,
    judge: textRule(field, cite, { max: node.maxLength, min: node.minLength, null: nullRuleOf(node), ...o }),
  });
const integer =
  (o: { integerString?: boolean; integerStated?: boolean; reads?: 'number' | 'numeric' } = {}): RowBuilder =>
  ({ node, cite, field }) => ({
    kind: 'integer',
    min: node.minimum,
    max: node.maximum,
    judge: integerRule(field, cite, { min: node.minimum, max: node.maximum, null: nullRuleOf(node), integerString: node['x-integer-string'] === true, ...o }),
  });
const bool =
  (nul?: NullRule): RowBuilder =>
  ({ node, cite, field }) => ({ kind: 'boolean', judge: booleanRule(field, cite, nul ?? nullRuleOf(node)) });
const enumeration =
  (nul?: NullRule): RowBuilder =>
  ({ node, cite, field }) => {
    const values = (node.enum as unknown[]).filter((x): x is string => typeof x === 'string');
    const caseVariant = node['x-enum-case'] === 'rejected' ? 'refuse' : 'either';
    return { kind: 'enum', values, judge: enumRule(field, cite, { values, null: nul ?? nullRuleOf(node), caseVariant }) };
  };
const uuid =
  (o: { typeStated?: boolean } = {}): RowBuilder =>
  ({ node, cite, field }) => ({ kind: 'uuid', judge: uuidRule(field, cite, { reference: node['x-reference'] === true, null: nullRuleOf(node), ...o }) });
const uuids =
  (order: 'set' | 'ordered', empty: ('empty-array' | 'null' | 'absent')[]): RowBuilder =>
  ({ node, cite, field }) => ({
    kind: 'uuid-list',
    judge: listRule(field, cite, uuidRule(`${field}[]`, cite, { reference: true, null: 'refuse' }), { null: nullRuleOf(node), empty, order }),
  });
const texts =
  (empty: ('empty-array' | 'null' | 'absent')[]): RowBuilder =>
  ({ node, cite, field }) => ({
    kind: 'text-list',
    judge: listRule(field, cite, textRule(`${field}[]`, cite, { null: 'refuse' }), { null: nullRuleOf(node), empty, order: 'exact' }),
  });
const plan =
  (o: { known?: string[]; unknownKey?: 'refuse'; reads?: 'contains' | 'unjudged'; null?: NullRule } = {}): RowBuilder =>
  ({ node, cite, field }) => ({ kind: 'object', judge: objectRule(field, cite, { null: nullRuleOf(node), ...o }) });
const timing: RowBuilder = ({ node, cite, field }) => ({ kind: 'any', judge: anyValueRule(field, cite, nullRuleOf(node)) });
const own =
  (kind: FieldKind, make: (field: string, cite: ReturnType<typeof citeFrom>) => Judge): RowBuilder =>
  ({ cite, field }) => ({ kind, judge: make(field, cite) });

/** One row as written: where its node is, and how its judge is built. */
interface RowSpec {
  operation: Operation;
  /** Body schema (`$id` relative to schemas/, fragment allowed); undefined where schemas/ holds no request node. */
  ref?: string;
  /** Dotted path, `[]` for a list item. */
  path: string;
  section: string;
  /** Dotted path of the read; default `path`. */
  shownAt?: string;
  /** Clauses cited where the schema annotates none. */
  clauses?: string[];
  build: RowBuilder;
}

const nonverbal: Judge = (v, ctx) => {
  if (typeof v === 'boolean') return booleanRule('nonverbalSounds', () => ['2.4/conversation-config-shape'], 'either')(v, ctx);
  return objectRule('nonverbalSounds', () => ['2.4/conversation-config-shape'], {
    null: 'either',
    open: (o) => (Object.values(o).every((x) => typeof x === 'boolean') ? undefined : 'what "boolean-style" admits is not shown'),
  })(v, ctx);
};

/** §2.2 top-level fields of PATCH /assistants/{id}, in the spec's order. */
const ASSISTANT_TOP: RowSpec[] = [
  ['name', text()],
  ['firstMessage', text()],
  ['voiceId', uuid()],
  ['transcriberId', uuid()],
  ['modelId', uuid()],
  ['developerPrompt', text()],
  ['parameters', own('object', (f, c) => freeObjectRule(f, c, { null: 'either', otherType: 'either' }))],
  ['recordingEnabled', bool()],
  ['failoverNumber', own('e164', (f, c) => e164Rule(f, c, { null: 'either', valid: (s) => VALID_PLAN_NUMBERS.some((r) => r.test(s)) }))],
  ['failoverMode', bool()],
  ['phoneNumberId', uuid()],
  ['toolIds', uuids('set', ['empty-array', 'null'])],
  ['timezone', own('zone', (f, c) => zoneRule(f, c))],
  ['address', text()],
  ['endOfCallMessage', text()],
  ['phoneNumberPassThrough', bool()],
  ['summaryPrompt', text()],
  ['structuredDataPrompt', text()],
  ['categories', texts(['empty-array', 'null'])],
  ['promptId', uuid()],
  ['chatPromptId', uuid()],
  ['whisperSummaryPromptId', uuid()],
  ['voicePersonaPromptId', uuid()],
  ['backgroundSound', bool()],
  ['serverUrl', own('url', (f, c) => serverUrlRule(f, c))],
  ['notifications', own('url-list', (f, c) => listRule(f, c, openRule(`${f}[]`, c, 'whether webhook URLs are validated is not stated'), notificationsList))],
  ['csatFeedback', bool()],
  ['idleMessages', texts(['empty-array', 'null'])],
  ['transferMode', enumeration()],
  ['callTimeLimitSeconds', integer()],
  ['idleTimeoutSeconds', integer()],
  ['idleMessageMaxSpokenCount', integer()],
  ['transferDialTimeout', integer({ reads: 'numeric' })],
  ['warmWhisperDelaySeconds', integer({ reads: 'numeric' })],
  ['warmReturnMessage', text({ empty: 'accept-unjudged', emptyClause: '2.2/warm-return-message-empty-restores' })],
  ['taskDrivenMode', bool()],
  ['transferSettings', plan({ known: ['amd_detection', 'use_assistant_number'], unknownKey: 'refuse' })],
  ['dictionaryIds', uuids('ordered', ['empty-array', 'absent'])],
  ['dictionarySettings', plan({ reads: 'unjudged', known: ['sttKeyterms', 'ttsPronunciations'] })],
  ['ivrSettings', own('object', (f, c) => freeObjectRule(f, c, { null: { reads: ['null', 'absent', 'empty-object'] }, otherType: 'refuse' }))],
].map(([path, build]) => ({ operation: PATCH, ref: PATCH_REF, path: path as string, section: '2.2', build: build as RowBuilder }));

/** Fields under the §2.2 documents and settings (§2.4 to §2.7). */
const ASSISTANT_NESTED: RowSpec[] = (
  [
    ['transferSettings.amd_detection', '2.5', bool('either')],
    ['transferSettings.use_assistant_number', '2.5', bool('either')],
    ['dictionarySettings.sttKeyterms.[].term', '2.6', text()],
    ['dictionarySettings.sttKeyterms.[].language', '2.6', own('language', (f, c) => languageRule(f, c))],
    ['dictionarySettings.ttsPronunciations.[].word', '2.6', text()],
    ['dictionarySettings.ttsPronunciations.[].respell', '2.6', text()],
    ['dictionarySettings.ttsPronunciations.[].phonemes', '2.6', text()],
    ['dictionarySettings.ttsPronunciations.[].language', '2.6', own('language', (f, c) => languageRule(f, c))],
    ['ivrSettings.ivrMode', '2.7', own('any', (f, c) => anyAcceptedRule(f, c))],
    ['settings.conversationConfig.endpointingPlan', '2.4', plan({ known: ['mode', 'minDelay', 'maxDelay'] })],
    ['settings.conversationConfig.endpointingPlan.mode', '2.4', enumeration()],
    ['settings.conversationConfig.endpointingPlan.minDelay', '2.4', timing],
    ['settings.conversationConfig.endpointingPlan.maxDelay', '2.4', timing],
    ['settings.conversationConfig.turnDetectionPlan', '2.4', plan({ known: ['timeout', 'unlikelyThreshold'] })],
    ['settings.conversationConfig.turnDetectionPlan.timeout', '2.4', timing],
    ['settings.conversationConfig.turnDetectionPlan.unlikelyThreshold', '2.4', timing],
    ['settings.conversationConfig.vadPlan', '2.4', plan({ known: ['minSpeechDuration', 'minSilenceDuration', 'prefixPaddingDuration'] })],
    ['settings.conversationConfig.vadPlan.minSpeechDuration', '2.4', timing],
    ['settings.conversationConfig.vadPlan.minSilenceDuration', '2.4', timing],
    ['settings.conversationConfig.vadPlan.prefixPaddingDuration', '2.4', timing],
    ['settings.conversationConfig.interruptionPlan', '2.4', plan({ known: ['minDuration', 'minWords'] })],
    [
      'settings.conversationConfig.interruptionPlan.minDuration',
      '2.4',
      own('number', (f, c) => numberRule(f, c, { min: 0, max: 5, null: { reads: ['null', 'absent'] } })),
    ],
    ['settings.conversationConfig.interruptionPlan.minWords', '2.4', integer({ integerString: false, integerStated: false })],
    ['settings.conversationConfig.deliveryMode', '2.4', enumeration('either')],
    ['settings.conversationConfig.expressiveOptions', '2.4', plan({ known: ['disfluencies', 'nonverbalSounds', 'pace', 'instructionsAppend'] })],
    ['settings.conversationConfig.expressiveOptions.disfluencies', '2.4', bool('either')],
    ['settings.conversationConfig.expressiveOptions.nonverbalSounds', '2.4', own('any', () => nonverbal)],
    ['settings.conversationConfig.expressiveOptions.pace', '2.4', enumeration('either')],
    ['settings.conversationConfig.expressiveOptions.instructionsAppend', '2.4', text({ null: 'either' })],
    ['settings.conversationConfig.emotionTaggingEnabled', '2.4', bool('either')],
  ] as [string, string, RowBuilder][]
).map(([path, section, build]) => ({ operation: PATCH, ref: PATCH_REF, path, section, build }));

const SMS_REASON = 'POST /sms-reasons' as const;
const SMS_REASON_REF = 'sms-reason.json#/$defs/request';
const ECHO = ['4.3/sms-reason-echo', '2.9/sms-reason-request-optional'];

/** §2.9, §4.3: the SMS reason request; its types are named, not ruled (another type is open); the answer carries the values sent (should). */
const SMS_REASON_ROWS: RowSpec[] = [
  ...['name', 'reason', 'message', 'content'].map((path) => ({ path, build: text({ typeStated: false, null: 'either' }) })),
  { path: 'assistantId', build: uuid({ typeStated: false }) },
  { path: 'properties', build: own('any', (f, c) => openRule(f, c, 'used internally; need not be supplied')) },
].map((r) => ({ operation: SMS_REASON, ref: SMS_REASON_REF, section: '2.9', clauses: ECHO, ...r }));

/** §4.4 POST /sms: message non-empty and at most 1600 characters; the numbers are judged by the run (registered or not, 404). */
const SMS_ROWS: RowSpec[] = [
  { path: 'message', build: text({ readsBack: false, null: 'either', typeStated: false }), clauses: ['4.4/sms-message-length', '8/limit-sms-message'] },
  {
    path: 'fromNumber',
    build: own('e164', (f, c) => openRule(f, c, 'a number registered on the tenant is accepted, any other answers 404')),
    clauses: ['4.4/from-number-not-found'],
  },
  { path: 'toNumber', build: own('e164', (f, c) => openRule(f, c, 'the destination format is not shown')), clauses: ['4.4/sms-message-sid'] },
].map((r) => ({ operation: 'POST /sms' as const, ref: 'sms.json#/$defs/request', section: '4.4', ...r }));

/** §4.5 rows with no request node in schemas/: test suites, tool text instructions, the takeover's actorLabel. */
const SURFACE_ROWS: RowSpec[] = [
  { operation: 'POST /test-suites', path: 'mode', section: '4.5', clauses: ['4.5/test-suite-mode-text-only'], build: own('enum', (f, c) => modeRule(f, c)) },
  {
    operation: 'POST /test-suites',
    path: 'iterations',
    section: '4.5',
    clauses: ['4.5/test-suite-iterations', '8/limit-test-iterations'],
    build: own('integer', (f, c) => iterationsRule(f, c)),
  },
  {
    operation: 'POST /test-suites',
    path: 'cases',
    section: '4.5',
    clauses: ['4.5/test-suite-max-cases', '8/limit-test-suite-cases'],
    build: own('any', (f, c) => casesRule(f, c)),
  },
  {
    operation: 'PUT /tools/{id}',
    path: 'textInstructions',
    section: '4.5',
    clauses: ['4.5/tool-instruction-shape', '4.5/tool-put-null-removes-text-instructions'],
    build: plan({ null: { reads: ['null', 'absent'] } }),
  },
  { operation: 'PUT /tools/{id}', path: 'instruction', section: '4.5', clauses: ['4.5/tool-instruction-shape'], build: plan({ reads: 'contains' }) },
  {
    operation: 'POST /calls/{id}/takeover',
    path: 'actorLabel',
    section: '4.5',
    shownAt: '[].actorLabel',
    clauses: ['4.5/actor-label-verbatim'],
    build: own('text', (f, c) => actorLabelRule(f, c)),
  },
];

/**
 * §2.2 timezone, "string (zone name)": a canonical IANA zone of long standing accepted and read
 * back; a string the IANA database does not name at all (`Mars/Olympus`, `UTC+25`, '') refused;
 * aliases, case variants, offsets and recently added zones open (a store's tz data may differ).
 */
function zoneRule(field: string, cite: ReturnType<typeof citeFrom>): Judge {
  const clauses = () => ['2.2/timezone-zone-name'];
  return (v) => {
    if (v === null) return { verdict: 'refuse', clauses: cite('null'), rule: `${field}: null is outside its stated types` };
    if (typeof v !== 'string') return { verdict: 'refuse', clauses: clauses(), rule: `${field}: a zone name is stated, ${typeof v} sent` };
    const reads = { kind: 'equals', value: v } as const;
    if (canonicalZones().has(v) && !RECENT_ZONES.has(v)) return { verdict: 'accept', clauses: clauses(), rule: `${field}: a canonical IANA zone`, reads };
    if (knownToIntl(v)) return { verdict: 'either', clauses: clauses(), rule: `${field}: an alias, variant or offset`, reads };
    if (v === '' || /^(UTC|GMT)[+-](1[5-9]|[2-9]\d)/.test(v) || /^(Mars|Moon|Nowhere)\//.test(v) || !/[A-Za-z]/.test(v)) {
      return { verdict: 'refuse', clauses: clauses(), rule: `${field}: ${JSON.stringify(v)} names no zone` };
    }
    return { verdict: 'either', clauses: clauses(), rule: `${field}: not a zone this runtime knows; another tz database may` };
  };
}

/**
 * Zones a careful store may not know: added to the IANA database since 2016, or names ICU lists as
 * canonical that IANA keeps only as backward links (CLDR's older spellings: Asia/Calcutta for
 * Asia/Kolkata), which a tz build without the `backward` file refuses.
 */
export const RECENT_ZONES = new Set([
  'Africa/Asmera',
  'America/Buenos_Aires',
  'America/Catamarca',
  'America/Coral_Harbour',
  'America/Cordoba',
  'America/Godthab',
  'America/Indianapolis',
  'America/Jujuy',
  'America/Louisville',
  'America/Mendoza',
  'Asia/Calcutta',
  'Asia/Katmandu',
  'Asia/Rangoon',
  'Asia/Saigon',
  'Atlantic/Faeroe',
  'Europe/Kiev',
  'Pacific/Enderbury',
  'Pacific/Ponape',
  'Pacific/Truk',
  'America/Ciudad_Juarez',
  'Europe/Kyiv',
  'America/Nuuk',
  'Pacific/Kanton',
  'Asia/Qostanay',
  'America/Punta_Arenas',
  'Asia/Famagusta',
  'Europe/Saratov',
  'Asia/Tomsk',
  'Asia/Barnaul',
  'Europe/Astrakhan',
  'Europe/Ulyanovsk',
  'Asia/Yangon',
  'Europe/Kirov',
  'America/Fort_Nelson',
  'Asia/Atyrau',
]);

let zones: Set<string> | undefined;
/** The runtime's canonical IANA zones (Intl.supportedValuesOf), plus UTC. */
export function canonicalZones(): Set<string> {
  return (zones ??= new Set(['UTC', ...(Intl as unknown as { supportedValuesOf(k: string): string[] }).supportedValuesOf('timeZone')]));
}

function knownToIntl(v: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: v });
    return true;
  } catch {
    return false;
  }
}

function modeRule(field: string, cite: ReturnType<typeof citeFrom>): Judge {
  return (v) => {
    if (v === 'text') return { verdict: 'accept', clauses: cite('enum'), rule: `${field}: text is the one mode accepted` };
    // Whether mode is required is not shown: null may be read as the mode left out (text), or refused.
    if (v === null) return { verdict: 'either', clauses: cite('enum'), rule: `${field}: null may be read as left out (text) or refused` };
    return { verdict: 'refuse', clauses: cite('enum'), rule: `${field}: only text is accepted (${JSON.stringify(v)} sent)` };
  };
}

function iterationsRule(field: string, cite: ReturnType<typeof citeFrom>): Judge {
  const inner = integerRule(field, cite, { min: 1, max: 10, null: 'either', integerString: false });
  return (v, ctx) =>
    typeof v === 'number' || v === null ? inner(v, ctx) : { verdict: 'either', clauses: cite('type'), rule: `${field}: the type is not stated` };
}

function casesRule(field: string, cite: ReturnType<typeof citeFrom>): Judge {
  return (v) => {
    if (Array.isArray(v) && v.length > 12) return { verdict: 'refuse', clauses: cite('bound'), rule: `${field}: up to 12 cases, ${v.length} sent` };
    return { verdict: 'either', clauses: cite('type'), rule: `${field}: the shape of a case is not shown` };
  };
}

function actorLabelRule(field: string, cite: ReturnType<typeof citeFrom>): Judge {
  const inner = textRule(field, cite, { null: 'either', typeStated: false });
  return (v, ctx) => {
    const out = inner(v, ctx);
    if (typeof v === 'string' && [...v].length > 200 && out.verdict === 'accept')
      return { ...out, verdict: 'either', rule: `${field}: its length limit is not stated` };
    return out;
  };
}

function build(spec: RowSpec): OracleRow {
  const path = spec.path.split('.');
  const located = spec.ref ? schemaNodeAt(spec.ref, path) : { node: {}, chain: [] };
  const field = path.filter((s) => s !== '[]').pop()!;
  const built = spec.build({ node: located.node, cite: citeFrom(located.chain, spec.clauses ?? []), field });
  const merged = located.node['x-merged-into'] as string | undefined;
  const shownAt = spec.shownAt ?? merged ?? spec.path;
  return { operation: spec.operation, path, section: spec.section, shownAt: shownAt.split('.'), ...built };
}

/** The oracle: one row per request field the spec shows. */
export const ORACLE: readonly OracleRow[] = [...ASSISTANT_TOP, ...ASSISTANT_NESTED, ...SMS_REASON_ROWS, ...SMS_ROWS, ...SURFACE_ROWS].map(build);

/**
 * The row of a field (`path` dotted, `[]` for a list item).
 * @throws Error when the table has no such row.
 */
export function oracleRow(operation: Operation, path: string): OracleRow {
  const row = ORACLE.find((r) => r.operation === operation && r.path.join('.') === path);
  if (!row) throw new Error(`oracle: no row for ${operation} ${path}`);
  return row;
}
