/**
 * Faults of the assistant areas (bounds, validation, merge: §2.2–§2.7, §4.1, §8). For each one:
 * with no fault the probe gives the spec's answer, and with the fault switched on it gives another
 * (app.inject, fresh simulator per test). A second check shows each fault leaves the rest intact:
 * a valid PATCH still succeeds and an unrelated invalid one is still refused.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FAULTS } from '../src/faults.ts';
import { makeWorld, type Res, type World } from './world.ts';

let w: World;
let id: string;
beforeEach(async () => {
  w = await makeWorld();
  id = (await w.assistant(w.A.apiKey, { name: 'Ava' })).id;
  await w.ctl('POST', '/dns', { hostname: 'hooks.example.com', addresses: ['93.184.216.34'] });
  await w.ctl('POST', '/dns', { hostname: 'mapped.example.com', addresses: ['::ffff:10.0.0.1'] });
  await w.ctl('POST', '/dns', { hostname: 'mixed.example.com', addresses: ['93.184.216.34', '10.0.0.1'] });
});
afterEach(async () => w.app.close());

const U1 = '11111111-1111-4111-8111-111111111111';
const U2 = '22222222-2222-4222-8222-222222222222';

const on = async (...faults: string[]) => expect((await w.ctl('PUT', '/config', { faults })).status).toBe(200);
const patch = (body: unknown) => w.req('PATCH', `/assistants/${id}`, { key: w.A.apiKey, body });
const get = async () => (await w.req('GET', `/assistants/${id}`, { key: w.A.apiKey })).body.data;
const status = async (body: unknown) => (await patch(body)).status;
/** Data of a PATCH that must succeed. */
const ok = async (body: unknown) => {
  const r: Res = await patch(body);
  if (r.status !== 200) throw new Error(`PATCH ${JSON.stringify(body).slice(0, 80)}: ${r.status} ${r.raw.slice(0, 200)}`);
  return r.body.data;
};
const url = (length: number) => {
  const head = 'https://hooks.example.com/';
  return head + 'a'.repeat(length - head.length);
};
const cc = (conversationConfig: unknown) => ({ settings: { conversationConfig } });

/** A probe and the answer the spec requires from it; the fault must change that answer. */
interface Case {
  probe: () => Promise<unknown>;
  spec: unknown;
}

const CASES: Record<string, Case> = {
  // §2.2 / §8 numeric bounds
  'bounds.call-time-limit-9': { probe: () => status({ callTimeLimitSeconds: 9 }), spec: 400 },
  'bounds.call-time-limit-43201': { probe: () => status({ callTimeLimitSeconds: 43201 }), spec: 400 },
  'bounds.idle-timeout-61': { probe: () => status({ idleTimeoutSeconds: 61 }), spec: 400 },
  'bounds.idle-timeout-minus-1': { probe: () => status({ idleTimeoutSeconds: -1 }), spec: 400 },
  'bounds.idle-message-count-11': { probe: () => status({ idleMessageMaxSpokenCount: 11 }), spec: 400 },
  'bounds.transfer-dial-timeout-0': { probe: () => status({ transferDialTimeout: 0 }), spec: 400 },
  'bounds.transfer-dial-timeout-61': { probe: () => status({ transferDialTimeout: 61 }), spec: 400 },
  'bounds.warm-whisper-31': { probe: () => status({ warmWhisperDelaySeconds: 31 }), spec: 400 },
  'bounds.integer-string-unbounded': { probe: () => status({ idleTimeoutSeconds: '61' }), spec: 400 },
  'bounds.non-integer-accepted': { probe: () => status({ callTimeLimitSeconds: 10.5 }), spec: 400 },
  'bounds.transfer-mode-case-insensitive': { probe: () => status({ transferMode: 'Warm-Return' }), spec: 400 },
  // length limits
  'bounds.warm-return-2001': { probe: () => status({ warmReturnMessage: 'x'.repeat(2001) }), spec: 400 },
  'bounds.instructions-append-2001': {
    probe: () => status(cc({ expressiveOptions: { instructionsAppend: 'x'.repeat(2001) } })),
    spec: 400,
  },
  // §2.4 interruptionPlan
  'bounds.interruption-min-duration-6': {
    probe: async () => [await status(cc({ interruptionPlan: { minDuration: 5.5 } })), await status(cc({ interruptionPlan: { minDuration: 6 } }))],
    spec: [400, 400],
  },
  'bounds.interruption-min-words-11': { probe: () => status(cc({ interruptionPlan: { minWords: 11 } })), spec: 400 },
  // the other side of each bound (faults-systematic.ts)
  'bounds.interruption-min-duration-negative': { probe: () => status(cc({ interruptionPlan: { minDuration: -0.5 } })), spec: 400 },
  'bounds.interruption-min-duration-refuses-0': { probe: () => status(cc({ interruptionPlan: { minDuration: 0 } })), spec: 200 },
  'bounds.interruption-min-duration-refuses-5': { probe: () => status(cc({ interruptionPlan: { minDuration: 5 } })), spec: 200 },
  'bounds.interruption-min-words-minus-1': { probe: () => status(cc({ interruptionPlan: { minWords: -1 } })), spec: 400 },
  'bounds.interruption-min-words-refuses-0': { probe: () => status(cc({ interruptionPlan: { minWords: 0 } })), spec: 200 },
  'bounds.interruption-min-words-refuses-10': { probe: () => status(cc({ interruptionPlan: { minWords: 10 } })), spec: 200 },
  'bounds.warm-return-refuses-2000': { probe: () => status({ warmReturnMessage: 'x'.repeat(2000) }), spec: 200 },
  'bounds.instructions-append-refuses-2000': {
    probe: () => status(cc({ expressiveOptions: { instructionsAppend: 'x'.repeat(2000) } })),
    spec: 200,
  },
  // both sides of every integer bound (faults-gaps.ts EDGE_FAULTS)
  'bounds.call-time-limit-refuses-10': { probe: () => status({ callTimeLimitSeconds: 10 }), spec: 200 },
  'bounds.call-time-limit-refuses-43200': { probe: () => status({ callTimeLimitSeconds: 43200 }), spec: 200 },
  'bounds.idle-timeout-refuses-0': { probe: () => status({ idleTimeoutSeconds: 0 }), spec: 200 },
  'bounds.idle-timeout-refuses-60': { probe: () => status({ idleTimeoutSeconds: 60 }), spec: 200 },
  'bounds.idle-message-count-minus-1': { probe: () => status({ idleMessageMaxSpokenCount: -1 }), spec: 400 },
  'bounds.idle-message-count-refuses-0': { probe: () => status({ idleMessageMaxSpokenCount: 0 }), spec: 200 },
  'bounds.idle-message-count-refuses-10': { probe: () => status({ idleMessageMaxSpokenCount: 10 }), spec: 200 },
  'bounds.transfer-dial-timeout-refuses-1': { probe: () => status({ transferDialTimeout: 1 }), spec: 200 },
  'bounds.transfer-dial-timeout-refuses-60': { probe: () => status({ transferDialTimeout: 60 }), spec: 200 },
  'bounds.warm-whisper-minus-1': { probe: () => status({ warmWhisperDelaySeconds: -1 }), spec: 400 },
  'bounds.warm-whisper-refuses-0': { probe: () => status({ warmWhisperDelaySeconds: 0 }), spec: 200 },
  'bounds.warm-whisper-refuses-30': { probe: () => status({ warmWhisperDelaySeconds: 30 }), spec: 200 },
  // coercions a lenient reader makes (faults-gaps.ts COERCION_FAULTS)
  'bounds.boolean-string-accepted': { probe: () => status({ recordingEnabled: 'true' }), spec: 400 },
  'bounds.boolean-number-accepted': { probe: () => status({ csatFeedback: 1 }), spec: 400 },
  'bounds.number-for-string-accepted': { probe: () => status({ firstMessage: 1 }), spec: 400 },
  'bounds.uuid-any-string': { probe: () => status({ voiceId: 'not-a-uuid' }), spec: 400 },
  'bounds.e164-without-plus': { probe: () => status({ failoverNumber: '14155550123' }), spec: 400 },
  'bounds.categories-non-strings': { probe: () => status({ categories: [1, 2] }), spec: 400 },
  'bounds.null-for-string-accepted': { probe: () => status({ firstMessage: null }), spec: 400 },
  // §2.2 timezone is a zone name
  'bounds.timezone-any-string': { probe: () => status({ timezone: 'Mars/Olympus' }), spec: 400 },
  'bounds.timezone-region-city-only': { probe: async () => [await status({ timezone: 'UTC' }), await status({ timezone: 'America/Argentina/Buenos_Aires' })], spec: [200, 200] },
  // §2.6 dictionarySettings
  'bounds.language-name': {
    probe: () => status({ dictionarySettings: { sttKeyterms: [{ term: 'Ava', language: 'English' }] } }),
    spec: 400,
  },
  'bounds.regional-locale-kept': {
    probe: async () => (await ok({ dictionarySettings: { sttKeyterms: [{ term: 'Ava', language: 'en-GB' }] } })).dictionarySettings,
    spec: { sttKeyterms: [{ term: 'Ava', language: 'en' }] },
  },
  'bounds.pronunciation-neither': {
    probe: () => status({ dictionarySettings: { ttsPronunciations: [{ word: 'Ava', language: null }] } }),
    spec: 400,
  },
  // §2.5
  'bounds.transfer-settings-unknown-key': {
    probe: async () => [await status({ transferSettings: { amd_detection: true, ring_timeout: 5 } }), (await get()).transferSettings],
    spec: [400, null],
  },
  // §4.1 validation answers
  'validation.details-first-only': {
    probe: async () => (await patch({ idleTimeoutSeconds: 61, name: 5, transferMode: 'x' })).body.error.details.map((d: any) => d.field).sort(),
    spec: ['idleTimeoutSeconds', 'name', 'transferMode'],
  },
  'validation.details-per-rule': {
    probe: async () => (await patch({ idleTimeoutSeconds: 'sixty', callTimeLimitSeconds: 61.5 })).body.error.details.map((d: any) => d.field).sort(),
    spec: ['callTimeLimitSeconds', 'idleTimeoutSeconds'],
  },
  // statement families: units and "each item"
  'bounds.warm-return-counts-bytes': { probe: () => status({ warmReturnMessage: '\u00e9'.repeat(2000) }), spec: 200 },
  'bounds.instructions-append-counts-bytes': {
    probe: () => status(cc({ expressiveOptions: { instructionsAppend: '\u00e9'.repeat(2000) } })),
    spec: 200,
  },
  'bounds.tool-ids-first-item-only': { probe: () => status({ toolIds: [U1, 'not-a-uuid'] }), spec: 400 },
  'bounds.pronunciation-first-item-only': {
    probe: () => status({ dictionarySettings: { ttsPronunciations: [{ word: 'Ava', respell: 'ah-va' }, { word: 'Bo' }] } }),
    spec: 400,
  },
  'bounds.language-first-item-only': {
    probe: () => status({ dictionarySettings: { sttKeyterms: [{ term: 'Ava', language: 'en' }, { term: 'Bo', language: 'English' }] } }),
    spec: 400,
  },
  // statements no fault stood for: enums, shapes, null on every plan field, ivrSettings
  'bounds.delivery-mode-any-string': { probe: () => status(cc({ deliveryMode: 'whisper' })), spec: 400 },
  'bounds.pace-any-string': { probe: () => status(cc({ expressiveOptions: { pace: 'brisk' } })), spec: 400 },
  'bounds.plan-field-null-refused': { probe: () => status(cc({ vadPlan: { minSpeechDuration: null } })), spec: 200 },
  'bounds.transfer-settings-string-values': { probe: () => status({ transferSettings: { amd_detection: 'yes' } }), spec: 400 },
  'bounds.keyterm-term-any-type': { probe: () => status({ dictionarySettings: { sttKeyterms: [{ term: 7 }] } }), spec: 400 },
  'bounds.language-null-refused': { probe: () => status({ dictionarySettings: { sttKeyterms: [{ term: 'Ava', language: null }] } }), spec: 200 },
  'merge.ivr-unknown-keys-dropped': { probe: async () => (await ok({ ivrSettings: { ivrMode: true, greeting: 'hi' } })).ivrSettings, spec: { ivrMode: true, greeting: 'hi' } },
  'merge.ivr-mode-false-dropped': { probe: async () => (await ok({ ivrSettings: { ivrMode: false } })).ivrSettings, spec: { ivrMode: false } },
  'merge.ivr-omitted-cleared': {
    probe: async () => {
      await ok({ ivrSettings: { ivrMode: true } });
      return (await ok({ name: 'Other' })).ivrSettings;
    },
    spec: { ivrMode: true },
  },
  'validation.partial-apply': {
    probe: async () => {
      const before = await get();
      const s = await status({ name: 'Changed', recordingEnabled: true, idleTimeoutSeconds: 61 });
      return [s, JSON.stringify(await get()) === JSON.stringify(before)];
    },
    spec: [400, true],
  },
  // §2.5 merge
  'merge.transfer-settings-replace': {
    probe: async () => {
      await ok({ transferSettings: { amd_detection: false } });
      return (await ok({ transferSettings: { use_assistant_number: true } })).transferSettings;
    },
    spec: { amd_detection: false, use_assistant_number: true },
  },
  'merge.transfer-settings-null-ignored': {
    probe: async () => {
      await ok({ transferSettings: { amd_detection: false } });
      return [(await ok({ transferSettings: null })).transferSettings, (await get()).transferSettings];
    },
    spec: [null, null],
  },
  // §2.6 merge
  'merge.dictionary-settings-merged': {
    probe: async () => {
      await ok({ dictionarySettings: { sttKeyterms: [{ term: 'Ava', language: null }] } });
      return (await ok({ dictionarySettings: { ttsPronunciations: [{ word: 'Ava', respell: 'AH-vah' }] } })).dictionarySettings;
    },
    spec: { ttsPronunciations: [{ word: 'Ava', respell: 'AH-vah', language: null }] },
  },
  'merge.dictionary-settings-null-ignored': {
    probe: async () => {
      await ok({ dictionarySettings: { sttKeyterms: [{ term: 'Ava', language: null }] } });
      return [(await ok({ dictionarySettings: null })).dictionarySettings, (await get()).dictionarySettings];
    },
    spec: [null, null],
  },
  // §2.7 merge
  'merge.ivr-replace': {
    probe: async () => {
      await ok({ ivrSettings: { ivrMode: true, a: { x: 1 } } });
      return (await ok({ ivrSettings: { b: 2, a: { y: 2 } } })).ivrSettings;
    },
    spec: { ivrMode: true, a: { x: 1, y: 2 }, b: 2 },
  },
  'merge.ivr-null-ignored': {
    probe: async () => {
      await ok({ ivrSettings: { ivrMode: true } });
      return [(await ok({ ivrSettings: null })).ivrSettings, (await get()).ivrSettings];
    },
    spec: [null, null],
  },
  'merge.ivr-null-key-kept': {
    probe: async () => {
      await ok({ ivrSettings: { ivrMode: true, x: 1 } });
      return (await ok({ ivrSettings: { x: null } })).ivrSettings;
    },
    spec: { ivrMode: true },
  },
  // §2.4 merge
  'merge.plan-null-ignored': {
    probe: async () => {
      await ok(cc({ interruptionPlan: { minDuration: 1, minWords: 2 }, vadPlan: { minSpeechDuration: 0.2 } }));
      const field = (await ok(cc({ interruptionPlan: { minWords: null } }))).settings.conversationConfig.interruptionPlan;
      const plan = 'vadPlan' in (await ok(cc({ vadPlan: null }))).settings.conversationConfig;
      return [field, plan];
    },
    spec: [{ minDuration: 1 }, false],
  },
  'merge.expressive-options-null-kept': {
    probe: async () => {
      await ok(cc({ deliveryMode: 'expressive', expressiveOptions: { pace: 'slow' } }));
      await ok(cc({ expressiveOptions: null }));
      return (await get()).settings.conversationConfig;
    },
    spec: { deliveryMode: 'expressive' },
  },
  // §2.2 lists
  'merge.tool-ids-union': {
    probe: async () => {
      await ok({ toolIds: [U1] });
      return (await ok({ toolIds: [U2] })).toolIds;
    },
    spec: [U2],
  },
  'merge.tool-ids-empty-ignored': {
    probe: async () => {
      await ok({ toolIds: [U1] });
      return (await ok({ toolIds: [] })).toolIds;
    },
    spec: [],
  },
  'merge.dictionary-ids-empty-ignored': {
    probe: async () => {
      await ok({ dictionaryIds: [U1, U2] });
      return (await ok({ dictionaryIds: [] })).dictionaryIds;
    },
    spec: [],
  },
  // §2.2 fields merged into settings
  'merge.settings-clobbered': {
    probe: async () => {
      await ok(cc({ deliveryMode: 'none' }));
      return (await ok({ transferDialTimeout: 20 })).settings;
    },
    spec: { conversationConfig: { deliveryMode: 'none' }, warmWhisperDelaySeconds: 0, transferDialTimeout: 20 },
  },
  'merge.warm-whisper-clobbers': {
    probe: async () => {
      await ok(cc({ deliveryMode: 'none' }));
      return (await ok({ warmWhisperDelaySeconds: '5' })).settings;
    },
    spec: { conversationConfig: { deliveryMode: 'none' }, warmWhisperDelaySeconds: 5 },
  },
  'merge.warm-return-clobbers': {
    probe: async () => {
      await ok({ ...cc({ deliveryMode: 'none' }), transferDialTimeout: 30 });
      return (await ok({ warmReturnMessage: 'Sorry, nobody answered.' })).settings;
    },
    spec: {
      conversationConfig: { deliveryMode: 'none' },
      warmWhisperDelaySeconds: 0,
      transferDialTimeout: 30,
      warmReturnMessage: 'Sorry, nobody answered.',
    },
  },
  // §4.1, §8
  'merge.omitted-reset': {
    probe: async () => {
      await ok({ idleMessages: ['Are you still there?'] });
      await ok({ name: 'Renamed' });
      return (await get()).idleMessages;
    },
    spec: ['Are you still there?'],
  },
  'merge.replay-drift': {
    probe: async () => {
      const body = { categories: ['billing', 'sales'], name: 'Replay' };
      await ok(body);
      const { updatedAt: _u, ...again } = await ok(body);
      const { updatedAt: _v, ...now } = await get();
      return [again.categories, now.categories];
    },
    spec: [['billing', 'sales'], ['billing', 'sales']],
  },
};

const OWN = FAULTS.filter((f) => /^(bounds|merge|validation)\./.test(f.name)).map((f) => f.name);

describe('assistant-area faults', () => {
  it('every bounds/merge/validation fault has a probe here, and every probe a fault', () => {
    expect(Object.keys(CASES).sort()).toEqual([...OWN].sort());
    for (const f of FAULTS.filter((x) => OWN.includes(x.name))) {
      expect(f.clauses.length, f.name).toBeGreaterThan(0);
      expect(f.description.length, f.name).toBeGreaterThan(10);
    }
  });

  it.each(OWN)('%s: spec answer without the fault, another with it', async (name) => {
    const c = CASES[name];
    expect(await c.probe(), 'no fault: spec answer').toEqual(c.spec);
    // A fresh assistant, so the faulty run starts from the same state.
    id = (await w.assistant(w.A.apiKey, { name: 'Ava' })).id;
    await on(name);
    expect(await c.probe(), `fault ${name} changes the answer`).not.toEqual(c.spec);
  });

  it.each(OWN)('%s: leaves the rest intact', async (name) => {
    await on(name);
    const good = await patch({
      name: 'Bea',
      idleTimeoutSeconds: '30',
      callTimeLimitSeconds: 600,
      transferSettings: { amd_detection: false },
      ivrSettings: { ivrMode: false },
      // Inside every bound, not on it: the over-blocking faults refuse the bound itself.
      serverUrl: url(1000),
      ...cc({ interruptionPlan: { minDuration: 4, minWords: 9 } }),
    });
    expect(good.status).toBe(200);
    // merge.ivr-mode-false-dropped is about ivrMode false itself: it is left out of the comparison.
    if (name === 'merge.ivr-mode-false-dropped') delete good.body.data.ivrSettings;
    expect(good.body.data).toMatchObject({
      name: 'Bea',
      idleTimeoutSeconds: 30,
      callTimeLimitSeconds: 600,
      transferSettings: { amd_detection: false },
      ...(name === 'merge.ivr-mode-false-dropped' ? {} : { ivrSettings: { ivrMode: false } }),
      serverUrl: url(1000),
      settings: { conversationConfig: { interruptionPlan: { minDuration: 4, minWords: 9 } }, warmWhisperDelaySeconds: 0 },
    });
    const bad = await patch({ idleMessageMaxSpokenCount: 'ten' });
    expect(bad.status).toBe(name === 'validation.422-status' ? 422 : 400);
    // validation.details-per-rule is about this very list: it lists the field once per failed rule.
    const details = name === 'validation.details-per-rule' ? bad.body.error.details.slice(0, 1) : bad.body.error.details;
    expect(details).toEqual([{ field: 'idleMessageMaxSpokenCount', message: expect.any(String) }]);
    expect((await get()).name).toBe('Bea');
  });
});

describe('assistant rules without faults (the accepting side of each bound)', () => {
  it('accepts every bound at its ends and integer strings', async () => {
    const edges: [string, unknown, unknown][] = [
      ['callTimeLimitSeconds', 10, 10],
      ['callTimeLimitSeconds', '43200', 43200],
      ['callTimeLimitSeconds', null, null],
      ['idleTimeoutSeconds', 0, 0],
      ['idleTimeoutSeconds', '60', 60],
      ['idleMessageMaxSpokenCount', 0, 0],
      ['idleMessageMaxSpokenCount', 10, 10],
    ];
    for (const [k, v, stored] of edges) expect((await ok({ [k]: v }))[k], `${k}=${JSON.stringify(v)}`).toBe(stored);
    expect((await ok({ transferDialTimeout: 1, warmWhisperDelaySeconds: 30 })).settings).toMatchObject({ transferDialTimeout: 1, warmWhisperDelaySeconds: 30 });
    expect((await ok({ transferDialTimeout: '60', warmWhisperDelaySeconds: '0' })).settings).toMatchObject({ transferDialTimeout: 60, warmWhisperDelaySeconds: 0 });
    expect((await ok({ warmReturnMessage: 'x'.repeat(2000) })).settings.warmReturnMessage).toHaveLength(2000);
    expect((await ok(cc({ expressiveOptions: { instructionsAppend: 'y'.repeat(2000) } }))).settings.conversationConfig.expressiveOptions.instructionsAppend).toHaveLength(2000);
    expect((await ok(cc({ interruptionPlan: { minDuration: 0, minWords: 0 } }))).settings.conversationConfig.interruptionPlan).toEqual({ minDuration: 0, minWords: 0 });
    expect((await ok({ serverUrl: url(1024) })).serverUrl).toHaveLength(1024);
    expect((await ok({ serverUrl: null })).serverUrl).toBeNull();
  });

  it('refuses non-integer strings and the other end of each bound', async () => {
    for (const body of [
      { callTimeLimitSeconds: '10.5' },
      { idleTimeoutSeconds: '30s' },
      { idleMessageMaxSpokenCount: -1 },
      { warmWhisperDelaySeconds: -1 },
      { transferDialTimeout: 1.5 },
      { serverUrl: 'https://unknown.example.com/e' },
      { dictionarySettings: { sttKeyterms: [{ term: 'x', language: 'xx' }] } },
      { dictionarySettings: { sttKeyterms: [{ term: 'x', language: 'zz-ZZ' }] } },
    ]) {
      expect(await status(body), JSON.stringify(body)).toBe(400);
    }
  });

  it('a pronunciation with either phonemes or respell alone is accepted; every listed language is', async () => {
    for (const lang of ['en', 'fr', 'de', 'es', 'it', 'pt', 'ar', 'nl', 'hi', 'ru', 'ja']) {
      const d = (await ok({ dictionarySettings: { ttsPronunciations: [{ word: 'Ava', phonemes: 'ˈɑ v ə', language: lang }] } })).dictionarySettings;
      expect(d.ttsPronunciations[0].language).toBe(lang);
    }
    expect((await ok({ dictionarySettings: { ttsPronunciations: [{ word: 'Ava', respell: 'AH-vah' }] } })).dictionarySettings.ttsPronunciations).toHaveLength(1);
  });
});
