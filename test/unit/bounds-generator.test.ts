/**
 * The bounds generator (helpers/generate/bounds.ts) and the merge model (helpers/generate/merge-model.ts):
 * the schemas drive the cases, so adding a bound or an enum value to a schema adds its cases with no
 * other change; clause ids come from the catalogue; templates render to exact lengths.
 */
import { describe, expect, test } from 'vitest';
import ipaddr from 'ipaddr.js';
import { budgetSample, generateBoundsCases, loadSchemaDocuments, materialize, PATCH_SCHEMA_ID, Template, type BoundsCase } from '../../helpers/generate/bounds';
import { ABSENT, formatPath, getAt, readingHolds } from '../../helpers/generate/paths';
import { applyPatch, compareWithModel, initialModel } from '../../helpers/generate/merge-model';
import { loadCatalogue } from '../../helpers/spec/catalogue';
import { rangeEdges, wildcardName } from '../../helpers/generate/hosts';
import { wildcardAddress } from '../../simulator/src/wildcard-dns';

const SETTINGS_ID = 'https://conformance.core-api.test/schemas/assistant.settings.json';

function docsWith(edit: (byId: Map<string, any>) => void): any[] {
  const docs = structuredClone(loadSchemaDocuments());
  edit(new Map(docs.map((d) => [d.$id!, d])));
  return docs;
}

const names = (cases: BoundsCase[]) => new Set(cases.map((c) => c.name));
const baseline = generateBoundsCases();

describe('generated cases from the real schemas', () => {
  test('at least 150 cases, names unique, both expectations present', () => {
    expect(baseline.length).toBeGreaterThanOrEqual(150);
    expect(names(baseline).size).toBe(baseline.length);
    expect(baseline.some((c) => c.expect === 'accept')).toBe(true);
    expect(baseline.some((c) => c.expect === 'reject')).toBe(true);
  });

  test('every case names clauses that exist in the catalogue', () => {
    const catalogue = loadCatalogue();
    const unknown = baseline.flatMap((c) => c.clauses.filter((id) => !catalogue.has(id)).map((id) => `${id} (${c.name})`));
    expect(unknown).toEqual([]);
  });

  test('each numeric bound yields below, at and above cases, and integer strings where annotated', () => {
    const idle = baseline.filter((c) => c.top === 'idleTimeoutSeconds');
    const pick = (v: unknown) => idle.find((c) => c.value === v)?.expect;
    expect([pick(-1), pick(0), pick(1), pick(59), pick(60), pick(61)]).toEqual(['reject', 'accept', 'accept', 'accept', 'accept', 'reject']);
    expect([pick('0'), pick('60'), pick('61'), pick('abc'), pick(0.5)]).toEqual(['accept', 'accept', 'reject', 'reject', 'reject']);
    expect(idle.find((c) => c.value === 61)!.clauses).toEqual(expect.arrayContaining(['2.2/idle-timeout-bounds', '8/idle-timeout-0-60']));
  });

  test('nested paths are reached, with minimal containers and their own clauses', () => {
    const at = (p: string) => baseline.filter((c) => formatPath(c.path) === p);
    const minDuration = at('settings.conversationConfig.interruptionPlan.minDuration');
    expect(minDuration.find((c) => c.value === 6)?.body).toEqual({ settings: { conversationConfig: { interruptionPlan: { minDuration: 6 } } } });
    const append = at('settings.conversationConfig.expressiveOptions.instructionsAppend');
    expect(append.filter((c) => c.kind === 'length').map((c) => [(c.value as string).length, c.expect])).toEqual([
      [2000, 'accept'],
      [2001, 'reject'],
    ]);
    const lang = at('dictionarySettings.ttsPronunciations[0].language');
    expect(lang.find((c) => c.value === 'fr')?.body).toEqual({
      dictionarySettings: { ttsPronunciations: [{ word: 'Conformex', phonemes: 'k ə n f ɔː m ɛ k s', language: 'fr' }] },
    });
    expect(lang.find((c) => c.value === 'en-GB')?.reading).toEqual({ kind: 'equals', value: 'en' });
    expect(lang.find((c) => c.value === 'English')?.expect).toBe('reject');
    const unknownKey = at('transferSettings').find((c) => c.kind === 'unknown-key');
    expect(unknownKey?.clauses).toEqual(['2.5/unknown-key-rejected']);
    const neither = baseline.find((c) => c.kind === 'required' && c.expect === 'reject');
    expect(neither?.clauses).toEqual(['2.6/pronunciation-needs-phonemes-or-respell']);
  });

  test('merged-into fields are read back where the schema says', () => {
    const c = baseline.find((x) => x.top === 'transferDialTimeout' && x.value === 60)!;
    expect(c.shownAt).toEqual(['settings', 'transferDialTimeout']);
  });

  test('no case where the spec leaves the rule open: ivrSettings inner values, null on nullable-on-read fields, enum case outside transferMode', () => {
    expect(baseline.filter((c) => c.top === 'ivrSettings' && c.expect === 'reject')).toEqual([]);
    expect(baseline.find((c) => c.top === 'idleTimeoutSeconds' && c.value === null)).toBeUndefined();
    expect(baseline.find((c) => c.top === 'voiceId' && c.expect === 'accept')).toBeUndefined();
    expect(baseline.filter((c) => c.kind === 'enum-case').every((c) => c.top === 'transferMode')).toBe(true);
  });

  test('the live budget sample keeps every bound, length and case-variant case and one of each other group', () => {
    const sample = budgetSample(baseline);
    expect(sample.size).toBeLessThan(baseline.length);
    for (const c of baseline.filter((x) => ['bound', 'integer-string', 'length', 'enum-case', 'required', 'unknown-key'].includes(x.kind)))
      expect(sample.has(c.name)).toBe(true);
    const groups = new Set(baseline.map((c) => `${c.top}|${c.kind}|${c.expect}`));
    for (const g of groups) expect(baseline.some((c) => sample.has(c.name) && `${c.top}|${c.kind}|${c.expect}` === g)).toBe(true);
  });

  test('templates render to exact lengths', () => {
    const c = baseline.find((x) => x.top === 'serverUrl' && x.kind === 'length' && x.expect === 'reject')!;
    expect(c.value).toBeInstanceOf(Template);
    const url = materialize(c.value, { publicHost: 'cf-abc123-bounds.example.com' }) as string;
    expect(url.length).toBe(1025);
    expect(url.startsWith('https://cf-abc123-bounds.example.com/')).toBe(true);
  });
});

describe('the schema drives the cases', () => {
  test('adding maxLength to a field adds its two length cases and nothing else', () => {
    const cases = generateBoundsCases({ documents: docsWith((m) => (m.get(PATCH_SCHEMA_ID).properties.address.maxLength = 80)) });
    const added = cases.filter((c) => !names(baseline).has(c.name));
    expect(added.map((c) => [formatPath(c.path), (c.value as string).length, c.expect])).toEqual([
      ['address', 80, 'accept'],
      ['address', 81, 'reject'],
    ]);
    expect(baseline.every((c) => names(cases).has(c.name))).toBe(true);
  });

  test('adding numeric bounds to a nested field adds its bound cases at that path', () => {
    const cases = generateBoundsCases({
      documents: docsWith((m) => {
        const p = m.get(SETTINGS_ID).properties.conversationConfig.properties.turnDetectionPlan.properties;
        p.timeout = { ...p.timeout, type: ['integer', 'null'], minimum: 100, maximum: 3000, 'x-type-stated': true };
      }),
    });
    const added = cases.filter((c) => !names(baseline).has(c.name));
    expect(added.every((c) => formatPath(c.path) === 'settings.conversationConfig.turnDetectionPlan.timeout')).toBe(true);
    const byValue = Object.fromEntries(added.map((c) => [String(c.value), c.expect]));
    expect(byValue).toMatchObject({
      '99': 'reject',
      '100': 'accept',
      '101': 'accept',
      '2999': 'accept',
      '3000': 'accept',
      '3001': 'reject',
      '100.5': 'reject',
    });
    expect(cases.length).toBeGreaterThan(baseline.length);
  });

  test('adding an enum value adds its accept case (and its case variants where case matters)', () => {
    const cases = generateBoundsCases({ documents: docsWith((m) => m.get(PATCH_SCHEMA_ID).properties.transferMode.enum.push('blind-transfer')) });
    const added = cases.filter((c) => !names(baseline).has(c.name)).map((c) => [c.value, c.expect]);
    expect(added).toEqual([
      ['blind-transfer', 'accept'],
      ['BLIND-TRANSFER', 'reject'],
      ['Blind-transfer', 'reject'],
    ]);
  });

  test('an accept case that contradicts its own schema is a schema error', () => {
    const docs = docsWith((m) => (m.get(PATCH_SCHEMA_ID).properties.address.examples = [42]));
    expect(() => generateBoundsCases({ documents: docs })).toThrow(/accept case fails its own schema/);
  });

  test('a $ref is followed across documents with the keywords beside it kept, and a dangling one is an error naming it', () => {
    const moved = docsWith((m) => {
      const patch = m.get(PATCH_SCHEMA_ID);
      m.get(SETTINGS_ID).$defs = { ...m.get(SETTINGS_ID).$defs, address: patch.properties.address };
      patch.properties.address = { $ref: 'assistant.settings.json#/$defs/address', 'x-clause': patch.properties.address['x-clause'] };
    });
    expect(generateBoundsCases({ documents: moved }).map((c) => c.name)).toEqual(baseline.map((c) => c.name));
    const dangling = docsWith((m) => (m.get(PATCH_SCHEMA_ID).properties.address = { $ref: 'assistant.settings.json#/$defs/noSuchDefinition' }));
    expect(() => generateBoundsCases({ documents: dangling })).toThrow(/noSuchDefinition/);
  });
});

describe('paths and readings', () => {
  test('cleared readings distinguish absent, null and {}', () => {
    expect(getAt({ a: { b: null } }, ['a', 'c'])).toBe(ABSENT);
    expect(readingHolds({ kind: 'cleared', readings: ['absent'] }, getAt({ a: { b: null } }, ['a', 'b']))).toBe(false);
    expect(readingHolds({ kind: 'cleared', readings: ['null', 'empty-object'] }, {})).toBe(true);
    expect(readingHolds({ kind: 'equals', value: -0 }, 0)).toBe(true); // JSON has no -0
    expect(readingHolds({ kind: 'equals', value: 1 }, 0)).toBe(false);
    expect(readingHolds({ kind: 'numeric', value: 30 }, '30')).toBe(true);
    expect(readingHolds({ kind: 'numeric', value: 30 }, '')).toBe(false);
  });
});

describe('merge model', () => {
  const base = initialModel();

  test('transferSettings deep-merges and null clears', () => {
    const m1 = applyPatch(base, { transferSettings: { amd_detection: false, use_assistant_number: true } });
    const m2 = applyPatch(m1, { transferSettings: { use_assistant_number: false } });
    expect(m2.transferSettings).toEqual({ amd_detection: false, use_assistant_number: false });
    expect(applyPatch(m2, { transferSettings: null }).transferSettings).toBeNull();
  });

  test('ivrSettings merges per key and a null key is deleted', () => {
    const m1 = applyPatch(base, { ivrSettings: { ivrMode: true, conformanceK1: 'a' } });
    const m2 = applyPatch(m1, { ivrSettings: { conformanceK1: null } });
    expect(m2.ivrSettings).toEqual({ ivrMode: true });
  });

  test('merged-into fields land in settings as numbers and keep the rest', () => {
    const m = applyPatch(base, { transferDialTimeout: '45' });
    expect(m.settings).toEqual({ ...base.settings, transferDialTimeout: 45 });
  });

  test('the comparison catches a kept null key, a replaced document and a lost settings key', () => {
    const m = applyPatch(applyPatch(base, { ivrSettings: { ivrMode: true, conformanceK1: 'a' } }), { ivrSettings: { conformanceK1: null } });
    const good = { ...m, ivrSettings: { ivrMode: true }, settings: { ...m.settings } };
    expect(compareWithModel(m, good)).toEqual([]);
    expect(compareWithModel(m, { ...good, ivrSettings: { ivrMode: true, conformanceK1: null } }).map((x) => x.field)).toEqual(['ivrSettings']);
    const ts = applyPatch(applyPatch(base, { transferSettings: { amd_detection: false } }), { transferSettings: { use_assistant_number: true } });
    expect(compareWithModel(ts, { ...ts, settings: { ...ts.settings }, transferSettings: { use_assistant_number: true } }).map((x) => x.field)).toEqual([
      'transferSettings',
    ]);
    const { conversationConfig: _cc, ...clobbered } = base.settings;
    expect(compareWithModel(base, { ...base, settings: clobbered }).map((x) => x.field)).toEqual(['settings.conversationConfig']);
  });
});

describe('wildcard DNS names (helpers/generate/hosts.ts)', () => {
  test('carry their address in the forms sslip.io reads, with valid labels, and the simulator reads back every §2.3 address', () => {
    expect(wildcardName('10.0.0.1', 'sslip.io')).toBe('10-0-0-1.sslip.io');
    expect(wildcardName('::1', 'sslip.io')).toBe('0-0-0-0-0-0-0-1.sslip.io');
    expect(wildcardName('::ffff:10.0.0.1', 'w.test')).toBe('0-0-0-0-0-ffff-a00-1.w.test');
    const all = [
      ...rangeEdges().map((e) => e.address),
      '0.0.0.0',
      '::',
      '::1',
      'fe80::1234',
      'fd12:3456:789a::1',
      '::ffff:127.0.0.1',
      '203.0.113.10',
      '2001:db8::10',
    ];
    for (const address of all) {
      const name = wildcardName(address, 'w.test');
      expect(name.split('.')[0], address).toMatch(/^[0-9a-f]([0-9a-f-]*[0-9a-f])?$/);
      expect(ipaddr.parse(wildcardAddress(name, 'w.test')!).toNormalizedString(), address).toBe(ipaddr.parse(address).toNormalizedString());
    }
  });
});
