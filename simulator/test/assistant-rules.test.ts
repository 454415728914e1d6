/**
 * The assistant's rules without faults (§2.2–§2.6, §8): the accepting side of each bound, and the
 * refusals the fault probes (simulator/test/faults/bounds.test.ts) do not state.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
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

const patch = (body: unknown) => w.req('PATCH', `/assistants/${id}`, { key: w.A.apiKey, body });
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
    expect((await ok({ transferDialTimeout: '60', warmWhisperDelaySeconds: '0' })).settings).toMatchObject({
      transferDialTimeout: 60,
      warmWhisperDelaySeconds: 0,
    });
    expect((await ok({ warmReturnMessage: 'x'.repeat(2000) })).settings.warmReturnMessage).toHaveLength(2000);
    expect(
      (await ok(cc({ expressiveOptions: { instructionsAppend: 'y'.repeat(2000) } }))).settings.conversationConfig.expressiveOptions.instructionsAppend,
    ).toHaveLength(2000);
    expect((await ok(cc({ interruptionPlan: { minDuration: 0, minWords: 0 } }))).settings.conversationConfig.interruptionPlan).toEqual({
      minDuration: 0,
      minWords: 0,
    });
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
    expect((await ok({ dictionarySettings: { ttsPronunciations: [{ word: 'Ava', respell: 'AH-vah' }] } })).dictionarySettings.ttsPronunciations).toHaveLength(
      1,
    );
  });
});
