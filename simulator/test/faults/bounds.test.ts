/**
 * Probes of the bounds and rules faults (§2.2, §2.4–§2.6, §8) (simulator/src/faults/bounds.ts): each
 * edits a fresh assistant of tenant A; `spec` is the answer the spec's reading gives.
 */
import { BOUNDS_FAULTS } from '../../src/faults/bounds.ts';
import { cc, leavesTheRestIntact, p } from './assistant-edit.ts';
import { probeArea } from './probe.ts';

const U1 = '11111111-1111-4111-8111-111111111111';

probeArea('bounds', BOUNDS_FAULTS, {
  'bounds.call-time-limit-9': { probe: p((a) => a.status({ callTimeLimitSeconds: 9 })), spec: 400 },
  'bounds.call-time-limit-43201': { probe: p((a) => a.status({ callTimeLimitSeconds: 43201 })), spec: 400 },
  'bounds.idle-timeout-61': { probe: p((a) => a.status({ idleTimeoutSeconds: 61 })), spec: 400 },
  'bounds.idle-timeout-minus-1': { probe: p((a) => a.status({ idleTimeoutSeconds: -1 })), spec: 400 },
  'bounds.idle-message-count-11': { probe: p((a) => a.status({ idleMessageMaxSpokenCount: 11 })), spec: 400 },
  'bounds.transfer-dial-timeout-0': { probe: p((a) => a.status({ transferDialTimeout: 0 })), spec: 400 },
  'bounds.transfer-dial-timeout-61': { probe: p((a) => a.status({ transferDialTimeout: 61 })), spec: 400 },
  'bounds.warm-whisper-31': { probe: p((a) => a.status({ warmWhisperDelaySeconds: 31 })), spec: 400 },
  'bounds.integer-string-unbounded': { probe: p((a) => a.status({ idleTimeoutSeconds: '61' })), spec: 400 },
  'bounds.integer-32-bit-wrap': { probe: p((a) => a.status({ idleTimeoutSeconds: 2 ** 32 + 10 })), spec: 400 },
  'bounds.integer-string-stored-as-text': {
    probe: p(async (a) => {
      await a.ok({ idleTimeoutSeconds: '30' });
      return (await a.get()).idleTimeoutSeconds;
    }),
    spec: 30,
  },
  'bounds.e164-unicode-digits': {
    probe: p((a) => a.status({ failoverNumber: '+\u0661\u0664\u0661\u0665\u0665\u0665\u0665\u0660\u0661\u0662\u0663' })),
    spec: 400,
  },
  'bounds.non-integer-accepted': { probe: p((a) => a.status({ callTimeLimitSeconds: 10.5 })), spec: 400 },
  'bounds.transfer-mode-case-insensitive': { probe: p((a) => a.status({ transferMode: 'Warm-Return' })), spec: 400 },
  'bounds.warm-return-2001': { probe: p((a) => a.status({ warmReturnMessage: 'x'.repeat(2001) })), spec: 400 },
  'bounds.instructions-append-2001': {
    probe: p((a) => a.status(cc({ expressiveOptions: { instructionsAppend: 'x'.repeat(2001) } }))),
    spec: 400,
  },
  'bounds.interruption-min-duration-6': {
    probe: p(async (a) => [await a.status(cc({ interruptionPlan: { minDuration: 5.5 } })), await a.status(cc({ interruptionPlan: { minDuration: 6 } }))]),
    spec: [400, 400],
  },
  'bounds.interruption-min-words-11': { probe: p((a) => a.status(cc({ interruptionPlan: { minWords: 11 } }))), spec: 400 },
  'bounds.interruption-min-duration-negative': { probe: p((a) => a.status(cc({ interruptionPlan: { minDuration: -0.5 } }))), spec: 400 },
  'bounds.interruption-min-duration-refuses-0': { probe: p((a) => a.status(cc({ interruptionPlan: { minDuration: 0 } }))), spec: 200 },
  'bounds.interruption-min-duration-refuses-5': { probe: p((a) => a.status(cc({ interruptionPlan: { minDuration: 5 } }))), spec: 200 },
  'bounds.interruption-min-words-minus-1': { probe: p((a) => a.status(cc({ interruptionPlan: { minWords: -1 } }))), spec: 400 },
  'bounds.interruption-min-words-refuses-0': { probe: p((a) => a.status(cc({ interruptionPlan: { minWords: 0 } }))), spec: 200 },
  'bounds.interruption-min-words-refuses-10': { probe: p((a) => a.status(cc({ interruptionPlan: { minWords: 10 } }))), spec: 200 },
  'bounds.warm-return-refuses-2000': { probe: p((a) => a.status({ warmReturnMessage: 'x'.repeat(2000) })), spec: 200 },
  'bounds.instructions-append-refuses-2000': {
    probe: p((a) => a.status(cc({ expressiveOptions: { instructionsAppend: 'x'.repeat(2000) } }))),
    spec: 200,
  },
  'bounds.call-time-limit-refuses-10': { probe: p((a) => a.status({ callTimeLimitSeconds: 10 })), spec: 200 },
  'bounds.call-time-limit-refuses-43200': { probe: p((a) => a.status({ callTimeLimitSeconds: 43200 })), spec: 200 },
  'bounds.idle-timeout-refuses-0': { probe: p((a) => a.status({ idleTimeoutSeconds: 0 })), spec: 200 },
  'bounds.idle-timeout-refuses-60': { probe: p((a) => a.status({ idleTimeoutSeconds: 60 })), spec: 200 },
  'bounds.idle-message-count-minus-1': { probe: p((a) => a.status({ idleMessageMaxSpokenCount: -1 })), spec: 400 },
  'bounds.idle-message-count-refuses-0': { probe: p((a) => a.status({ idleMessageMaxSpokenCount: 0 })), spec: 200 },
  'bounds.idle-message-count-refuses-10': { probe: p((a) => a.status({ idleMessageMaxSpokenCount: 10 })), spec: 200 },
  'bounds.transfer-dial-timeout-refuses-1': { probe: p((a) => a.status({ transferDialTimeout: 1 })), spec: 200 },
  'bounds.transfer-dial-timeout-refuses-60': { probe: p((a) => a.status({ transferDialTimeout: 60 })), spec: 200 },
  'bounds.warm-whisper-minus-1': { probe: p((a) => a.status({ warmWhisperDelaySeconds: -1 })), spec: 400 },
  'bounds.warm-whisper-refuses-0': { probe: p((a) => a.status({ warmWhisperDelaySeconds: 0 })), spec: 200 },
  'bounds.warm-whisper-refuses-30': { probe: p((a) => a.status({ warmWhisperDelaySeconds: 30 })), spec: 200 },
  'bounds.boolean-string-accepted': { probe: p((a) => a.status({ recordingEnabled: 'true' })), spec: 400 },
  'bounds.boolean-number-accepted': { probe: p((a) => a.status({ csatFeedback: 1 })), spec: 400 },
  'bounds.number-for-string-accepted': { probe: p((a) => a.status({ firstMessage: 1 })), spec: 400 },
  'bounds.uuid-any-string': { probe: p((a) => a.status({ voiceId: 'not-a-uuid' })), spec: 400 },
  'bounds.e164-without-plus': { probe: p((a) => a.status({ failoverNumber: '14155550123' })), spec: 400 },
  'bounds.e164-16-digits': { probe: p((a) => a.status({ failoverNumber: '+1415555012345678' })), spec: 400 },
  'bounds.categories-non-strings': { probe: p((a) => a.status({ categories: [1, 2] })), spec: 400 },
  'bounds.null-for-string-accepted': { probe: p((a) => a.status({ firstMessage: null })), spec: 400 },
  'bounds.timezone-any-string': { probe: p((a) => a.status({ timezone: 'Mars/Olympus' })), spec: 400 },
  'bounds.timezone-region-city-only': {
    probe: p(async (a) => [await a.status({ timezone: 'UTC' }), await a.status({ timezone: 'America/Argentina/Buenos_Aires' })]),
    spec: [200, 200],
  },
  'bounds.language-name': {
    probe: p((a) => a.status({ dictionarySettings: { sttKeyterms: [{ term: 'Ava', language: 'English' }] } })),
    spec: 400,
  },
  'bounds.regional-locale-kept': {
    probe: p(async (a) => (await a.ok({ dictionarySettings: { sttKeyterms: [{ term: 'Ava', language: 'en-GB' }] } })).dictionarySettings),
    spec: { sttKeyterms: [{ term: 'Ava', language: 'en' }] },
  },
  'bounds.pronunciation-neither': {
    probe: p((a) => a.status({ dictionarySettings: { ttsPronunciations: [{ word: 'Ava', language: null }] } })),
    spec: 400,
  },
  'bounds.transfer-settings-unknown-key': {
    probe: p(async (a) => [await a.status({ transferSettings: { amd_detection: true, ring_timeout: 5 } }), (await a.get()).transferSettings]),
    spec: [400, null],
  },
  'bounds.warm-return-counts-bytes': { probe: p((a) => a.status({ warmReturnMessage: '\u00e9'.repeat(2000) })), spec: 200 },
  'bounds.instructions-append-counts-bytes': {
    probe: p((a) => a.status(cc({ expressiveOptions: { instructionsAppend: '\u00e9'.repeat(2000) } }))),
    spec: 200,
  },
  'bounds.tool-ids-first-item-only': { probe: p((a) => a.status({ toolIds: [U1, 'not-a-uuid'] })), spec: 400 },
  'bounds.pronunciation-first-item-only': {
    probe: p((a) => a.status({ dictionarySettings: { ttsPronunciations: [{ word: 'Ava', respell: 'ah-va' }, { word: 'Bo' }] } })),
    spec: 400,
  },
  'bounds.language-first-item-only': {
    probe: p((a) =>
      a.status({
        dictionarySettings: {
          sttKeyterms: [
            { term: 'Ava', language: 'en' },
            { term: 'Bo', language: 'English' },
          ],
        },
      }),
    ),
    spec: 400,
  },
  'bounds.delivery-mode-any-string': { probe: p((a) => a.status(cc({ deliveryMode: 'whisper' }))), spec: 400 },
  'bounds.pace-any-string': { probe: p((a) => a.status(cc({ expressiveOptions: { pace: 'brisk' } }))), spec: 400 },
  'bounds.plan-field-null-refused': { probe: p((a) => a.status(cc({ vadPlan: { minSpeechDuration: null } }))), spec: 200 },
  'bounds.transfer-settings-string-values': { probe: p((a) => a.status({ transferSettings: { amd_detection: 'yes' } })), spec: 400 },
  'bounds.keyterm-term-any-type': { probe: p((a) => a.status({ dictionarySettings: { sttKeyterms: [{ term: 7 }] } })), spec: 400 },
  'bounds.language-null-refused': { probe: p((a) => a.status({ dictionarySettings: { sttKeyterms: [{ term: 'Ava', language: null }] } })), spec: 200 },
});

leavesTheRestIntact('bounds', BOUNDS_FAULTS);
