/**
 * Probes of the merge faults (§2.2, §2.4–§2.7, §4.1, §8) (simulator/src/faults/merge.ts): each
 * edits a fresh assistant of tenant A; `spec` is the answer the spec's reading gives.
 */
import { MERGE_FAULTS } from '../../src/faults/merge.ts';
import { cc, leavesTheRestIntact, p } from './assistant-edit.ts';
import { probeArea } from './probe.ts';

const U1 = '11111111-1111-4111-8111-111111111111';
const U2 = '22222222-2222-4222-8222-222222222222';

probeArea('merge', MERGE_FAULTS, {
  'merge.ivr-unknown-keys-dropped': {
    probe: p(async (a) => (await a.ok({ ivrSettings: { ivrMode: true, greeting: 'hi' } })).ivrSettings),
    spec: { ivrMode: true, greeting: 'hi' },
  },
  'merge.ivr-mode-false-dropped': { probe: p(async (a) => (await a.ok({ ivrSettings: { ivrMode: false } })).ivrSettings), spec: { ivrMode: false } },
  'merge.ivr-omitted-cleared': {
    probe: p(async (a) => {
      await a.ok({ ivrSettings: { ivrMode: true } });
      return (await a.ok({ name: 'Other' })).ivrSettings;
    }),
    spec: { ivrMode: true },
  },
  'merge.transfer-settings-replace': {
    probe: p(async (a) => {
      await a.ok({ transferSettings: { amd_detection: false } });
      return (await a.ok({ transferSettings: { use_assistant_number: true } })).transferSettings;
    }),
    spec: { amd_detection: false, use_assistant_number: true },
  },
  'merge.transfer-settings-null-ignored': {
    probe: p(async (a) => {
      await a.ok({ transferSettings: { amd_detection: false } });
      return [(await a.ok({ transferSettings: null })).transferSettings, (await a.get()).transferSettings];
    }),
    spec: [null, null],
  },
  'merge.dictionary-settings-merged': {
    probe: p(async (a) => {
      await a.ok({ dictionarySettings: { sttKeyterms: [{ term: 'Ava', language: null }] } });
      return (await a.ok({ dictionarySettings: { ttsPronunciations: [{ word: 'Ava', respell: 'AH-vah' }] } })).dictionarySettings;
    }),
    spec: { ttsPronunciations: [{ word: 'Ava', respell: 'AH-vah', language: null }] },
  },
  'merge.dictionary-settings-null-ignored': {
    probe: p(async (a) => {
      await a.ok({ dictionarySettings: { sttKeyterms: [{ term: 'Ava', language: null }] } });
      return [(await a.ok({ dictionarySettings: null })).dictionarySettings, (await a.get()).dictionarySettings];
    }),
    spec: [null, null],
  },
  'merge.ivr-replace': {
    probe: p(async (a) => {
      await a.ok({ ivrSettings: { ivrMode: true, a: { x: 1 } } });
      return (await a.ok({ ivrSettings: { b: 2, a: { y: 2 } } })).ivrSettings;
    }),
    spec: { ivrMode: true, a: { x: 1, y: 2 }, b: 2 },
  },
  'merge.ivr-null-ignored': {
    probe: p(async (a) => {
      await a.ok({ ivrSettings: { ivrMode: true } });
      return [(await a.ok({ ivrSettings: null })).ivrSettings, (await a.get()).ivrSettings];
    }),
    spec: [null, null],
  },
  'merge.ivr-null-key-kept': {
    probe: p(async (a) => {
      await a.ok({ ivrSettings: { ivrMode: true, x: 1 } });
      return (await a.ok({ ivrSettings: { x: null } })).ivrSettings;
    }),
    spec: { ivrMode: true },
  },
  'merge.plan-null-ignored': {
    probe: p(async (a) => {
      await a.ok(cc({ interruptionPlan: { minDuration: 1, minWords: 2 }, vadPlan: { minSpeechDuration: 0.2 } }));
      const field = (await a.ok(cc({ interruptionPlan: { minWords: null } }))).settings.conversationConfig.interruptionPlan;
      const plan = 'vadPlan' in (await a.ok(cc({ vadPlan: null }))).settings.conversationConfig;
      return [field, plan];
    }),
    spec: [{ minDuration: 1 }, false],
  },
  'merge.expressive-options-null-kept': {
    probe: p(async (a) => {
      await a.ok(cc({ deliveryMode: 'expressive', expressiveOptions: { pace: 'slow' } }));
      await a.ok(cc({ expressiveOptions: null }));
      return (await a.get()).settings.conversationConfig;
    }),
    spec: { deliveryMode: 'expressive' },
  },
  'merge.tool-ids-union': {
    probe: p(async (a) => {
      await a.ok({ toolIds: [U1] });
      return (await a.ok({ toolIds: [U2] })).toolIds;
    }),
    spec: [U2],
  },
  'merge.tool-ids-empty-ignored': {
    probe: p(async (a) => {
      await a.ok({ toolIds: [U1] });
      return (await a.ok({ toolIds: [] })).toolIds;
    }),
    spec: [],
  },
  'merge.dictionary-ids-empty-ignored': {
    probe: p(async (a) => {
      await a.ok({ dictionaryIds: [U1, U2] });
      return (await a.ok({ dictionaryIds: [] })).dictionaryIds;
    }),
    spec: [],
  },
  'merge.settings-clobbered': {
    probe: p(async (a) => {
      await a.ok(cc({ deliveryMode: 'none' }));
      return (await a.ok({ transferDialTimeout: 20 })).settings;
    }),
    spec: { conversationConfig: { deliveryMode: 'none' }, warmWhisperDelaySeconds: 0, transferDialTimeout: 20 },
  },
  'merge.warm-whisper-clobbers': {
    probe: p(async (a) => {
      await a.ok(cc({ deliveryMode: 'none' }));
      return (await a.ok({ warmWhisperDelaySeconds: '5' })).settings;
    }),
    spec: { conversationConfig: { deliveryMode: 'none' }, warmWhisperDelaySeconds: 5 },
  },
  'merge.warm-return-clobbers': {
    probe: p(async (a) => {
      await a.ok({ ...cc({ deliveryMode: 'none' }), transferDialTimeout: 30 });
      return (await a.ok({ warmReturnMessage: 'Sorry, nobody answered.' })).settings;
    }),
    spec: {
      conversationConfig: { deliveryMode: 'none' },
      warmWhisperDelaySeconds: 0,
      transferDialTimeout: 30,
      warmReturnMessage: 'Sorry, nobody answered.',
    },
  },
  'merge.omitted-server-url-cleared': {
    probe: p(async (a) => {
      await a.ok({ serverUrl: 'https://203.0.113.10/hooks' });
      await a.ok({ name: 'Renamed' });
      return (await a.get()).serverUrl;
    }),
    spec: 'https://203.0.113.10/hooks',
  },
  'merge.omitted-reset': {
    probe: p(async (a) => {
      await a.ok({ idleMessages: ['Are you still there?'] });
      await a.ok({ name: 'Renamed' });
      return (await a.get()).idleMessages;
    }),
    spec: ['Are you still there?'],
  },
  'merge.replay-drift': {
    probe: p(async (a) => {
      const body = { categories: ['billing', 'sales'], name: 'Replay' };
      await a.ok(body);
      const { updatedAt: _u, ...again } = await a.ok(body);
      const { updatedAt: _v, ...now } = await a.get();
      return [again.categories, now.categories];
    }),
    spec: [
      ['billing', 'sales'],
      ['billing', 'sales'],
    ],
  },
});

leavesTheRestIntact('merge', MERGE_FAULTS);
