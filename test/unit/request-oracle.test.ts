/**
 * The request-field oracle (helpers/generate/oracle-table.ts), both ways: for rows of every kind,
 * values it must call accepted (with the read it demands), refused (with the clause it cites) and
 * open; every request field of schemas/ has a row, and a row's bounds are its schema node's.
 */
import { describe, expect, it } from 'vitest';
import { judgeRow, schemaNodeAt, type Operation } from '../../helpers/generate/oracle';
import { ORACLE, oracleRow } from '../../helpers/generate/oracle-table';
import { readIntegerString, readUuid, type Verdict } from '../../helpers/generate/oracle-rules';
import { readingHolds } from '../../helpers/generate/paths';

const PATCH: Operation = 'PATCH /assistants/{id}';
const PUBLIC = 'hooks.example.com';
const ctx = {
  resolve: (h: string) => (h === PUBLIC ? ['203.0.113.10'] : h === 'inside.example.com' ? ['10.1.2.3'] : h === 'nowhere.invalid' ? [] : undefined),
};

/** [field, value, verdict, what an accepted value reads as (undefined: not judged), clause the judgement cites] */
type Row = [string, unknown, Verdict, unknown?, string?];

const CASES: Row[] = [
  ['idleTimeoutSeconds', 30, 'accept', 30, '2.2/idle-timeout-bounds'],
  ['idleTimeoutSeconds', '30', 'accept', 30, '2.2/integer-string-accepted'],
  ['idleTimeoutSeconds', '0', 'accept', 0],
  ['idleTimeoutSeconds', 61, 'refuse', undefined, '8/idle-timeout-0-60'],
  ['idleTimeoutSeconds', 2 ** 32 + 30, 'refuse'],
  ['idleTimeoutSeconds', '4294967326', 'refuse'],
  ['idleTimeoutSeconds', 30.5, 'refuse', undefined, '2.2/request-types'],
  ['idleTimeoutSeconds', '30abc', 'refuse'],
  ['idleTimeoutSeconds', '', 'refuse'],
  ['idleTimeoutSeconds', '1.5', 'refuse'],
  ['idleTimeoutSeconds', true, 'refuse'],
  ['idleTimeoutSeconds', ' 30', 'either', 30],
  ['idleTimeoutSeconds', '+30', 'either', 30],
  ['idleTimeoutSeconds', '\u0663\u0660', 'either', 30],
  ['idleTimeoutSeconds', '\uff13\uff10', 'either', 30],
  ['idleTimeoutSeconds', '\u0667\u0660', 'refuse'],
  ['idleTimeoutSeconds', null, 'either'],
  ['callTimeLimitSeconds', null, 'accept', null, '2.2/call-time-limit-null'],
  ['callTimeLimitSeconds', 43200, 'accept', 43200],
  ['callTimeLimitSeconds', '9', 'refuse'],
  ['transferDialTimeout', 0, 'refuse', undefined, '2.2/transfer-dial-timeout-bounds'],
  ['transferMode', 'warm-return', 'accept', 'warm-return', '2.2/transfer-mode-enum'],
  ['transferMode', 'Cold-transfer', 'refuse', undefined, '2.2/transfer-mode-case-sensitive'],
  ['transferMode', 'cold-transfer ', 'refuse'],
  ['transferMode', null, 'refuse'],
  ['settings.conversationConfig.deliveryMode', 'EXPRESSIVE', 'either'],
  ['settings.conversationConfig.deliveryMode', 'loud', 'refuse', undefined, '2.4/delivery-mode-enum'],
  ['name', 'Réception 受付 🎧', 'accept', 'Réception 受付 🎧', '4.1/value-reads-back-exactly'],
  ['name', 42, 'refuse', undefined, '2.2/request-types'],
  ['name', null, 'refuse'],
  ['name', '', 'either'],
  ['name', 'a\ud800b', 'either'],
  ['name', 'bell\u0007', 'either'],
  ['name', 'tab\tand line\nfeed', 'accept', 'tab\tand line\nfeed'],
  ['developerPrompt', null, 'either'],
  ['warmReturnMessage', '', 'accept', undefined, '2.2/warm-return-message-empty-restores'],
  ['warmReturnMessage', 'x'.repeat(2000), 'accept', 'x'.repeat(2000)],
  ['warmReturnMessage', 'x'.repeat(2001), 'refuse', undefined, '2.2/warm-return-message-length'],
  ['warmReturnMessage', '😀'.repeat(1001), 'either'],
  ['recordingEnabled', false, 'accept', false],
  ['recordingEnabled', 'true', 'refuse'],
  ['recordingEnabled', null, 'refuse'],
  ['taskDrivenMode', null, 'either'],
  ['voiceId', '6f9619ff-8b86-4011-b42d-00c04fc964ff', 'either', '6f9619ff-8b86-4011-b42d-00c04fc964ff', '2.2/reference-existence'],
  ['voiceId', 'not-a-uuid', 'refuse', undefined, '2.2/uuid-fields'],
  ['voiceId', '{6f9619ff-8b86-4011-b42d-00c04fc964ff}', 'either'],
  ['chatPromptId', null, 'accept', null, '2.2/prompt-ids-null-clears'],
  ['toolIds', [], 'accept', []],
  ['toolIds', ['6f9619ff-8b86-4011-b42d-00c04fc964ff', 'nope'], 'refuse'],
  ['toolIds', 'x', 'refuse'],
  ['categories', ['billing', 'support'], 'accept', ['billing', 'support']],
  ['categories', ['billing', 3], 'refuse'],
  ['failoverNumber', '+14155550123', 'accept', '+14155550123', '2.2/e164-failover-number'],
  ['failoverNumber', '+442079460018', 'accept', '+442079460018'],
  ['failoverNumber', '+33612345678', 'either'],
  ['failoverNumber', '+1 415 555 0123', 'either'],
  ['failoverNumber', '+1234567890123456', 'refuse'],
  ['failoverNumber', '14155550123', 'refuse'],
  ['failoverNumber', '+\u0661\u0664\u0661\u0665\u0665\u0665\u0665\u0660\u0661\u0662\u0663', 'refuse'],
  ['failoverNumber', '+04155550123', 'refuse'],
  ['timezone', 'Asia/Tokyo', 'accept', 'Asia/Tokyo', '2.2/timezone-zone-name'],
  ['timezone', 'US/Eastern', 'either'],
  ['timezone', 'Mars/Olympus', 'refuse'],
  ['timezone', 'UTC+25', 'refuse'],
  ['timezone', '', 'refuse'],
  ['timezone', 42, 'refuse'],
  ['serverUrl', `https://${PUBLIC}/hooks?tenant=a&x=1`, 'accept', `https://${PUBLIC}/hooks?tenant=a&x=1`, '2.3/public-name-accepted'],
  ['serverUrl', null, 'accept', null, '2.3/null-clears'],
  ['serverUrl', `http://${PUBLIC}/`, 'refuse', undefined, '2.3/https-max-1024'],
  ['serverUrl', `https://${PUBLIC}/${'a'.repeat(1024)}`, 'refuse', undefined, '2.3/https-max-1024'],
  ['serverUrl', `https://${PUBLIC}@10.0.0.1/hook`, 'refuse', undefined, '2.3/no-private-addresses'],
  ['serverUrl', `https://10.0.0.1\\@${PUBLIC}/hook`, 'refuse', undefined, '2.3/no-private-addresses'],
  ['serverUrl', 'https://2130706433/hook', 'refuse', undefined, '2.3/no-private-addresses'],
  ['serverUrl', 'https://0x7f.1/hook', 'refuse'],
  ['serverUrl', 'https://[::ffff:7f00:1]/', 'refuse'],
  ['serverUrl', 'https://[0:0:0:0:0:0:0:1]/', 'refuse'],
  ['serverUrl', 'https://0.0.0.0/', 'refuse', undefined, '2.3/no-unspecified-address'],
  ['serverUrl', 'https://inside.example.com/', 'refuse'],
  ['serverUrl', 'https://nowhere.invalid/', 'refuse', undefined, '2.3/hostname-must-resolve'],
  ['serverUrl', `https://user:pw@${PUBLIC}/`, 'either'],
  ['serverUrl', 'https://[2001:db8::10]/', 'either'],
  ['serverUrl', 'https://unarranged.example.org/', 'either'],
  ['serverUrl', 42, 'refuse'],
  ['transferSettings', { amd_detection: false }, 'accept', { amd_detection: false }, '2.5/known-keys'],
  ['transferSettings', { amd_detection: false, extra: 1 }, 'refuse', undefined, '2.5/unknown-key-rejected'],
  ['transferSettings', null, 'accept', null, '2.5/null-clears'],
  ['transferSettings', [], 'refuse'],
  ['ivrSettings', { ivrMode: true, note: { a: [1, 2] } }, 'accept', { ivrMode: true, note: { a: [1, 2] }, other: 1 }, '2.7/free-form'],
  ['ivrSettings', { __proto__x: 1, constructor: 2 }, 'either'],
  ['ivrSettings', 'on', 'refuse'],
  ['ivrSettings.ivrMode', 'yes', 'accept', 'yes', '2.7/ivr-mode-boolean'],
  ['dictionarySettings.sttKeyterms.[].language', 'en-GB', 'accept', 'en', '2.6/regional-locale-base-code'],
  ['dictionarySettings.sttKeyterms.[].language', 'fr', 'accept', 'fr'],
  ['dictionarySettings.sttKeyterms.[].language', 'English', 'refuse', undefined, '2.6/language-name-rejected'],
  ['dictionarySettings.sttKeyterms.[].language', 'zz-ZZ', 'refuse'],
  ['dictionarySettings.ttsPronunciations.[].language', 'pt_BR', 'either'],
  ['dictionarySettings.ttsPronunciations.[].language', null, 'accept', null],
  ['settings.conversationConfig.interruptionPlan.minDuration', 2.5, 'accept', 2.5, '2.4/interruption-plan-bounds'],
  ['settings.conversationConfig.interruptionPlan.minDuration', 5.01, 'refuse'],
  ['settings.conversationConfig.interruptionPlan.minWords', 11, 'refuse'],
  ['settings.conversationConfig.interruptionPlan.minWords', 2.5, 'either'],
  ['settings.conversationConfig.endpointingPlan.minDelay', 'whatever', 'either'],
  ['settings.conversationConfig.endpointingPlan.minDelay', null, 'accept', null, '2.4/plan-null-accepted'],
  ['settings.conversationConfig.expressiveOptions', null, 'accept', undefined, '2.4/expressive-options-null-omits'],
  ['settings.conversationConfig.expressiveOptions.instructionsAppend', 'x'.repeat(2001), 'refuse', undefined, '8/instructions-append-2000'],
  ['settings.conversationConfig.expressiveOptions.nonverbalSounds', { laughing: 'yes' }, 'either'],
  ['settings.conversationConfig.expressiveOptions.nonverbalSounds', { laughing: true }, 'accept', { laughing: true }],
];

const SURFACE: [Operation, string, unknown, Verdict, string?][] = [
  ['POST /sms', 'message', 'x', 'accept', '4.4/sms-message-length'],
  ['POST /sms', 'message', 'x'.repeat(1600), 'accept'],
  ['POST /sms', 'message', '', 'refuse', '4.4/sms-message-length'],
  ['POST /sms', 'message', 'x'.repeat(1601), 'refuse', '8/limit-sms-message'],
  ['POST /sms', 'message', '😀'.repeat(1000), 'either'],
  ['POST /sms-reasons', 'name', 'Booking link', 'accept', '4.3/sms-reason-echo'],
  ['POST /sms-reasons', 'name', 42, 'either'],
  // The assistant it belongs to (§2.9): a reference, whose existence is not stated.
  ['POST /sms-reasons', 'assistantId', '460cdbf5-8987-5441-88ad-7b117dd27d89', 'either', '2.2/reference-existence'],
  ['POST /test-suites', 'iterations', 2.5, 'refuse', '4.5/test-suite-iterations'],
  ['POST /test-suites', 'mode', 'text', 'accept', '4.5/test-suite-mode-text-only'],
  ['POST /test-suites', 'mode', 'voice', 'refuse'],
  ['POST /test-suites', 'mode', null, 'either'],
  ['POST /test-suites', 'iterations', 10, 'accept'],
  ['POST /test-suites', 'iterations', 11, 'refuse', '4.5/test-suite-iterations'],
  ['POST /test-suites', 'iterations', '5', 'either'],
  ['POST /test-suites', 'cases', Array(13).fill({}), 'refuse', '4.5/test-suite-max-cases'],
  ['PUT /tools/{id}', 'textInstructions', null, 'accept', '4.5/tool-put-null-removes-text-instructions'],
  ['PUT /tools/{id}', 'textInstructions', 'x', 'refuse'],
  ['POST /calls/{id}/takeover', 'actorLabel', 'Agent <b>"Zoë"</b>', 'accept', '4.5/actor-label-verbatim'],
  ['POST /calls/{id}/takeover', 'actorLabel', 'x'.repeat(201), 'either'],
];

describe('the request-field oracle', () => {
  it.each(CASES)('%s (case %#) → %s', (path, value, verdict, reads, clause) => {
    const j = judgeRow(oracleRow(PATCH, path), value, ctx);
    expect(j.verdict, j.rule).toBe(verdict);
    if (clause) expect(j.clauses).toContain(clause);
    if (verdict !== 'accept') expect(j.refusal).toMatchObject({ status: 400, code: 'VALIDATION_ERROR' });
    if (clause === '2.2/reference-existence') expect(j.refusal?.any4xx, 'an id naming nothing may be refused with any 4xx').toBe(true);
    if (reads !== undefined) {
      expect(j.reads, 'an accepted value states its read').toBeDefined();
      expect(readingHolds(j.reads!, reads), `${JSON.stringify(j.reads)} holds of ${JSON.stringify(reads)}`).toBe(true);
    }
  });

  it.each(SURFACE)('%s %s (case %#)', (operation, path, value, verdict, clause) => {
    const j = judgeRow(oracleRow(operation, path), value, ctx);
    expect(j.verdict, j.rule).toBe(verdict);
    if (clause) expect(j.clauses).toContain(clause);
  });

  it('reads are strict where the spec is: an integer string reads back as a number, a locale as its base code, a uuid as sent or lower case', () => {
    const int = judgeRow(oracleRow(PATCH, 'idleTimeoutSeconds'), '30', ctx).reads!;
    expect(readingHolds(int, '30')).toBe(false);
    const locale = judgeRow(oracleRow(PATCH, 'dictionarySettings.sttKeyterms.[].language'), 'en-GB', ctx).reads!;
    expect(readingHolds(locale, 'en-GB')).toBe(false);
    const upper = judgeRow(oracleRow(PATCH, 'voiceId'), '6F9619FF-8B86-4011-B42D-00C04FC964FF', ctx).reads!;
    expect(readingHolds(upper, '6f9619ff-8b86-4011-b42d-00c04fc964ff')).toBe(true);
    expect(readingHolds(upper, '6f9619ff-8b86-4011-b42d-00c04fc964fe')).toBe(false);
    const set = judgeRow(oracleRow(PATCH, 'toolIds'), ['6f9619ff-8b86-4011-b42d-00c04fc964ff', '00000000-0000-4000-8000-000000000001'], ctx).reads!;
    expect(readingHolds(set, ['00000000-0000-4000-8000-000000000001', '6f9619ff-8b86-4011-b42d-00c04fc964ff'])).toBe(true);
    expect(readingHolds(set, ['00000000-0000-4000-8000-000000000001'])).toBe(false);
  });

  it('reads integer strings and uuids in every form the rules name', () => {
    expect(readIntegerString('042')).toEqual({ form: 'variant', value: 42 });
    expect(readIntegerString('-0')).toEqual({ form: 'variant', value: 0 });
    expect(readIntegerString('1_000')).toEqual({ form: 'variant', value: 1000 });
    expect(readIntegerString('3e1')).toEqual({ form: 'variant', value: 30 });
    expect(readIntegerString('0x1e')).toEqual({ form: 'variant', value: 30 });
    expect(readIntegerString('30.5')).toEqual({ form: 'none' });
    expect(readIntegerString('--3')).toEqual({ form: 'none' });
    expect(readUuid('urn:uuid:6F9619FF-8B86-4011-B42D-00C04FC964FF')).toEqual({ form: 'variant', lower: '6f9619ff-8b86-4011-b42d-00c04fc964ff' });
    expect(readUuid('6f9619ff8b864011b42d00c04fc964ff')).toEqual({ form: 'variant', lower: '6f9619ff-8b86-4011-b42d-00c04fc964ff' });
    expect(readUuid('6f9619ff-8b86-4011-b42d-00c04fc964f')).toEqual({ form: 'none' });
  });

  it('has a row for every request field of the PATCH, SMS reason and SMS schemas', () => {
    const missing: string[] = [];
    const walk = (op: Operation, ref: string, path: string[]) => {
      const { node } = schemaNodeAt(ref, path);
      const props = node.properties ?? (node.items ? { '[]': node.items } : undefined);
      if (path.length && !ORACLE.some((r) => r.operation === op && r.path.join('.') === path.join('.')) && !props?.['[]'])
        missing.push(`${op} ${path.join('.')}`);
      if (path.includes('nonverbalSounds')) return;
      for (const k of Object.keys(props ?? {})) walk(op, ref, [...path, k]);
    };
    walk(PATCH, 'assistant.patch.request.json', []);
    walk('POST /sms-reasons', 'sms-reason.json#/$defs/request', []);
    walk('POST /sms', 'sms.json#/$defs/request', []);
    // Containers whose members have rows, and list items, which their list's row judges.
    const noRow = missing.filter((m) => !/( settings| settings\.conversationConfig|sttKeyterms|ttsPronunciations|\.\[\])$/.test(m));
    expect(noRow).toEqual([]);
    expect(missing.length).toBeGreaterThan(0);
  });

  it("takes a row's bounds and length from its schema node", () => {
    for (const row of ORACLE.filter((r) => r.operation === PATCH && (r.kind === 'integer' || r.max !== undefined))) {
      const { node } = schemaNodeAt('assistant.patch.request.json', row.path);
      expect([row.path.join('.'), row.min, row.max]).toEqual([row.path.join('.'), node.minimum, node.maximum ?? node.maxLength]);
    }
    expect(oracleRow(PATCH, 'warmWhisperDelaySeconds').shownAt).toEqual(['settings', 'warmWhisperDelaySeconds']);
  });
});
