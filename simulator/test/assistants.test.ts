import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ASSISTANT_PROPERTIES } from '../src/model/assistant.ts';
import { makeWorld, type World } from './world.ts';

let w: World;
let id: string;
beforeEach(async () => {
  w = await makeWorld();
  id = (await w.assistant(w.A.apiKey, { name: 'Ava' })).id;
});
afterEach(async () => w.app.close());

const patch = (body: unknown) => w.req('PATCH', `/assistants/${id}`, { key: w.A.apiKey, body });
const get = async () => (await w.req('GET', `/assistants/${id}`, { key: w.A.apiKey })).body.data;
const fields = (r: { body: any }) => r.body.error.details.map((d: any) => d.field).sort();
const U1 = '11111111-1111-4111-8111-111111111111';
const U2 = '22222222-2222-4222-8222-222222222222';

describe('assistant object', () => {
  it('has exactly the 42 properties', async () => {
    const a = await get();
    expect(ASSISTANT_PROPERTIES.length).toBe(42);
    expect(Object.keys(a).sort()).toEqual([...ASSISTANT_PROPERTIES].sort());
    expect(a.transferMode).toBe('cold-transfer');
    expect(a.serverUrl).toBeNull();
  });

  it('list carries id and name, tenant-scoped', async () => {
    await w.assistant(w.B.apiKey, { name: 'Other' });
    const r = await w.req('GET', '/assistants', { key: w.A.apiKey });
    expect(r.body.data.assistants.map((a: any) => [a.id, a.name])).toEqual([[id, 'Ava']]);
  });

  it('POST validates like PATCH', async () => {
    const r = await w.req('POST', '/assistants', { key: w.A.apiKey, body: { transferSettings: { nope: true } } });
    expect(r.status).toBe(400);
    expect(fields(r)).toEqual(['transferSettings.nope']);
    const ok = await w.req('POST', '/assistants', { key: w.A.apiKey, body: { transferSettings: { amd_detection: false } } });
    expect(ok.body.data.transferSettings).toEqual({ amd_detection: false });
    expect((await w.req('POST', '/assistants', { key: w.A.apiKey, body: [1] })).body.error.details[0].field).toBe('body');
  });
});

describe('PATCH rules', () => {
  it('omitted fields stay unchanged; updatedAt moves', async () => {
    const before = await get();
    const r = await patch({ firstMessage: 'Hi' });
    expect(r.body.data.name).toBe('Ava');
    expect(r.body.data.firstMessage).toBe('Hi');
    expect(r.body.data.createdAt).toBe(before.createdAt);
  });

  it('types and formats', async () => {
    const r = await patch({
      voiceId: 'abc',
      transcriberId: null,
      modelId: U1,
      recordingEnabled: 1,
      failoverNumber: '+0123',
      parameters: [],
      timezone: 'Mars/Olympus',
      categories: [1],
      chatPromptId: null,
      whisperSummaryPromptId: 'x',
      notifications: ['not a url'],
      idleMessages: 'hello',
      taskDrivenMode: 'true',
      toolIds: [U1, 'x'],
      dictionaryIds: 'x',
    });
    expect(fields(r)).toEqual([
      'categories',
      'dictionaryIds',
      'failoverNumber',
      'idleMessages',
      'notifications',
      'parameters',
      'recordingEnabled',
      'taskDrivenMode',
      'timezone',
      'toolIds',
      'transcriberId',
      'voiceId',
      'whisperSummaryPromptId',
    ]);
    const a = await get();
    expect(a.modelId).toBeNull(); // a rejected PATCH changes nothing
    const ok = await patch({ failoverNumber: '+14155550123', timezone: 'Europe/Paris', chatPromptId: U1, modelId: U2 });
    expect(ok.status).toBe(200);
    expect(ok.body.data).toMatchObject({ failoverNumber: '+14155550123', timezone: 'Europe/Paris', chatPromptId: U1, modelId: U2 });
    expect((await patch({ chatPromptId: null })).body.data.chatPromptId).toBeNull();
  });

  it('integer fields accept integer strings, enforce bounds, store numbers', async () => {
    const ok = await patch({ callTimeLimitSeconds: '43200', idleTimeoutSeconds: 0, idleMessageMaxSpokenCount: '10' });
    expect(ok.body.data).toMatchObject({ callTimeLimitSeconds: 43200, idleTimeoutSeconds: 0, idleMessageMaxSpokenCount: 10 });
    expect((await patch({ callTimeLimitSeconds: null })).body.data.callTimeLimitSeconds).toBeNull();
    const bad = await patch({
      callTimeLimitSeconds: 9,
      idleTimeoutSeconds: 61,
      idleMessageMaxSpokenCount: 11,
      transferDialTimeout: 0,
      warmWhisperDelaySeconds: 31,
    });
    expect(fields(bad)).toEqual(['callTimeLimitSeconds', 'idleMessageMaxSpokenCount', 'idleTimeoutSeconds', 'transferDialTimeout', 'warmWhisperDelaySeconds']);
    const bad2 = await patch({ callTimeLimitSeconds: 10.5, idleTimeoutSeconds: '5.0', idleMessageMaxSpokenCount: ' 3', transferDialTimeout: true });
    expect(fields(bad2)).toEqual(['callTimeLimitSeconds', 'idleMessageMaxSpokenCount', 'idleTimeoutSeconds', 'transferDialTimeout']);
    expect((await patch({ idleTimeoutSeconds: null })).status).toBe(400);
  });

  it('transferMode exact and case-sensitive', async () => {
    for (const m of ['cold-transfer', 'smart-summary', 'warm-return']) expect((await patch({ transferMode: m })).body.data.transferMode).toBe(m);
    for (const m of ['Cold-Transfer', 'WARM-RETURN', 'warm_return', ' warm-return', '']) expect((await patch({ transferMode: m })).status).toBe(400);
  });

  it('settings merges: transferDialTimeout, warmWhisperDelaySeconds, warmReturnMessage', async () => {
    await patch({ settings: { conversationConfig: { deliveryMode: 'none' }, custom: { a: 1 } } });
    const r = await patch({ transferDialTimeout: '30', warmWhisperDelaySeconds: 5, warmReturnMessage: 'Sorry' });
    expect(r.body.data.settings).toEqual({
      conversationConfig: { deliveryMode: 'none' },
      custom: { a: 1 },
      warmWhisperDelaySeconds: 5,
      transferDialTimeout: 30,
      warmReturnMessage: 'Sorry',
    });
    expect((await patch({ warmReturnMessage: 'x'.repeat(2001) })).status).toBe(400);
    expect((await patch({ warmReturnMessage: 'x'.repeat(2000) })).status).toBe(200);
    expect((await patch({ warmReturnMessage: '' })).body.data.settings.warmReturnMessage).toBe('');
  });

  it('conversationConfig §2.4', async () => {
    const cc = (x: unknown) => patch({ settings: { conversationConfig: x } });
    const r = await cc({
      endpointingPlan: { mode: 'dynamic', minDelay: 0.2, maxDelay: 1 },
      interruptionPlan: { minDuration: 5, minWords: 0 },
      deliveryMode: 'expressive',
      expressiveOptions: { disfluencies: true, nonverbalSounds: { laughing: true }, pace: 'fast', instructionsAppend: 'x'.repeat(2000) },
      futureKey: { kept: true },
    });
    expect(r.status).toBe(200);
    const r2 = await cc({ endpointingPlan: { minDelay: null }, vadPlan: { minSpeechDuration: 0.1 } });
    expect(r2.body.data.settings.conversationConfig.endpointingPlan).toEqual({ mode: 'dynamic', maxDelay: 1 });
    expect(r2.body.data.settings.conversationConfig.futureKey).toEqual({ kept: true });
    const r3 = await cc({ interruptionPlan: null, expressiveOptions: null });
    expect(r3.body.data.settings.conversationConfig).not.toHaveProperty('interruptionPlan');
    expect(r3.body.data.settings.conversationConfig).not.toHaveProperty('expressiveOptions');
    expect((await get()).settings.conversationConfig).not.toHaveProperty('expressiveOptions');
    const bad = await cc({
      interruptionPlan: { minDuration: 5.1, minWords: 11 },
      deliveryMode: 'loud',
      endpointingPlan: { mode: 'Fixed' },
      expressiveOptions: { pace: 'slower', instructionsAppend: 'x'.repeat(2001), disfluencies: 'yes', nonverbalSounds: { sighing: 'a' } },
    });
    expect(fields(bad)).toEqual([
      'settings.conversationConfig.deliveryMode',
      'settings.conversationConfig.endpointingPlan.mode',
      'settings.conversationConfig.expressiveOptions.disfluencies',
      'settings.conversationConfig.expressiveOptions.instructionsAppend',
      'settings.conversationConfig.expressiveOptions.nonverbalSounds',
      'settings.conversationConfig.expressiveOptions.pace',
      'settings.conversationConfig.interruptionPlan.minDuration',
      'settings.conversationConfig.interruptionPlan.minWords',
    ]);
  });

  it('transferSettings §2.5: unknown keys rejected, deep merge, null clears', async () => {
    expect((await patch({ transferSettings: { amd_detection: false } })).body.data.transferSettings).toEqual({ amd_detection: false });
    expect((await patch({ transferSettings: { use_assistant_number: true } })).body.data.transferSettings).toEqual({
      amd_detection: false,
      use_assistant_number: true,
    });
    expect(fields(await patch({ transferSettings: { amd: true, use_assistant_number: 'yes' } }))).toEqual([
      'transferSettings.amd',
      'transferSettings.use_assistant_number',
    ]);
    expect((await get()).transferSettings).toEqual({ amd_detection: false, use_assistant_number: true });
    expect((await patch({ transferSettings: null })).body.data.transferSettings).toBeNull();
    expect((await patch({ transferSettings: [] })).status).toBe(400);
  });

  it('dictionarySettings §2.6', async () => {
    const r = await patch({
      dictionarySettings: {
        sttKeyterms: [{ term: 'Acme', language: 'en-GB' }, { term: 'Zorg' }],
        ttsPronunciations: [
          { word: 'Acme', respell: 'ak-mee', language: null },
          { word: 'Nguyen', phonemes: 'w ɪ n', language: 'fr' },
        ],
      },
    });
    expect(r.status).toBe(200);
    expect(r.body.data.dictionarySettings.sttKeyterms[0].language).toBe('en');
    expect((await patch({ dictionarySettings: { sttKeyterms: [] } })).body.data.dictionarySettings).toEqual({ sttKeyterms: [] });
    const bad = await patch({
      dictionarySettings: {
        sttKeyterms: [
          { term: 'a', language: 'English' },
          { term: 'b', language: 'zh' },
        ],
        ttsPronunciations: [{ word: 'x' }, { word: 'y', respell: 'why', language: 'xx-YY' }],
      },
    });
    expect(fields(bad)).toEqual([
      'dictionarySettings.sttKeyterms[0].language',
      'dictionarySettings.sttKeyterms[1].language',
      'dictionarySettings.ttsPronunciations[0]',
      'dictionarySettings.ttsPronunciations[1].language',
    ]);
    expect((await patch({ dictionarySettings: null })).body.data.dictionarySettings).toBeNull();
  });

  it('ivrSettings §2.7', async () => {
    expect((await patch({ ivrSettings: { ivrMode: true, greeting: 'hi', nested: { a: 1, b: 2 } } })).status).toBe(200);
    const r = await patch({ ivrSettings: { greeting: null, nested: { b: null, c: 3 } } });
    expect(r.body.data.ivrSettings).toEqual({ ivrMode: true, nested: { a: 1, c: 3 } });
    expect((await patch({ name: 'x' })).body.data.ivrSettings).toEqual({ ivrMode: true, nested: { a: 1, c: 3 } });
    expect((await patch({ ivrSettings: null })).body.data.ivrSettings).toBeNull();
    expect((await patch({ ivrSettings: 'on' })).status).toBe(400);
  });

  it('toolIds and dictionaryIds replace the set; [] unlinks all', async () => {
    expect((await patch({ toolIds: [U1, U2], dictionaryIds: [U2, U1] })).body.data).toMatchObject({ toolIds: [U1, U2], dictionaryIds: [U2, U1] });
    expect((await patch({ toolIds: [U2] })).body.data.toolIds).toEqual([U2]);
    expect((await patch({ toolIds: [], dictionaryIds: [] })).body.data).toMatchObject({ toolIds: [], dictionaryIds: [] });
  });
});

describe('serverUrl §2.3', () => {
  beforeEach(async () => {
    await w.ctl('POST', '/dns', { hostname: 'hooks.example.com', addresses: ['203.0.113.10'] });
    await w.ctl('POST', '/dns', { hostname: 'internal.example.com', addresses: ['10.1.2.3'] });
    await w.ctl('POST', '/dns', { hostname: 'mixed.example.com', addresses: ['203.0.113.10', '192.168.1.1'] });
    await w.ctl('POST', '/dns', { hostname: 'v6.example.com', addresses: ['::ffff:127.0.0.1'] });
    await w.ctl('POST', '/dns', { hostname: 'gone.example.com', addresses: [] });
  });

  it('accepts a public https URL and null', async () => {
    const url = 'https://hooks.example.com/webhooks/core';
    expect((await patch({ serverUrl: url })).body.data.serverUrl).toBe(url);
    expect((await get()).serverUrl).toBe(url);
    expect((await patch({ serverUrl: null })).body.data.serverUrl).toBeNull();
    expect((await patch({ serverUrl: 'https://93.184.216.34/x' })).status).toBe(200);
    expect((await patch({ serverUrl: 'https://[2606:4700::1111]/x' })).status).toBe(200);
  });

  it('length limit is 1024 characters', async () => {
    const base = 'https://hooks.example.com/';
    expect((await patch({ serverUrl: base + 'a'.repeat(1024 - base.length) })).status).toBe(200);
    expect((await patch({ serverUrl: base + 'a'.repeat(1025 - base.length) })).status).toBe(400);
  });

  it.each([
    'http://hooks.example.com/x',
    'ftp://hooks.example.com/x',
    'hooks.example.com/x',
    '',
    'https://unknown.example.org/x',
    'https://gone.example.com/x',
    'https://internal.example.com/x',
    'https://mixed.example.com/x',
    'https://v6.example.com/x',
    'https://127.0.0.1/x',
    'https://10.0.0.1/x',
    'https://172.16.0.1/x',
    'https://172.31.255.255/x',
    'https://192.168.0.1/x',
    'https://169.254.169.254/latest',
    'https://0.0.0.0/x',
    'https://[::1]/x',
    'https://[fe80::1]/x',
    'https://[fd00::1]/x',
    'https://[fc00::1]/x',
    'https://[::ffff:10.0.0.1]/x',
    'https://[::ffff:169.254.169.254]/x',
    'https://2130706433/x',
    'https://localhost/x',
  ])('rejects %s', async (serverUrl) => {
    const r = await patch({ serverUrl });
    expect(r.status).toBe(400);
    expect(fields(r)).toEqual(['serverUrl']);
  });

  it('accepts 172.32.0.1 and 11.0.0.1 (outside the private ranges)', async () => {
    expect((await patch({ serverUrl: 'https://172.32.0.1/x' })).status).toBe(200);
    expect((await patch({ serverUrl: 'https://11.0.0.1/x' })).status).toBe(200);
  });
});
