/** Probes of the prompt faults (simulator/src/faults/prompts.ts). */
import { PROMPTS_FAULTS } from '../../src/faults/prompts.ts';
import { probeArea } from './probe.ts';

probeArea('prompts', PROMPTS_FAULTS, {
  'prompts.whisper-summary-rejected': async (w) => (await w.req('POST', '/prompts', { key: w.A.apiKey, body: { type: 'whisper_summary' } })).status,
  'prompts.ivr-rejected': async (w) => (await w.req('POST', '/prompts', { key: w.A.apiKey, body: { type: 'ivr' } })).status,
  'prompts.type-filter-ignored': async (w) => {
    await w.req('POST', '/prompts', { key: w.A.apiKey, body: { type: 'ivr' } });
    return (await w.req('GET', '/prompts?type=chat', { key: w.A.apiKey })).body.data.length;
  },
  'prompts.type-list-cached': async (w) => {
    await w.req('GET', '/prompts?type=chat', { key: w.A.apiKey });
    await w.req('POST', '/prompts', { key: w.A.apiKey, body: { type: 'chat' } });
    return (await w.req('GET', '/prompts?type=chat', { key: w.A.apiKey })).body.data.length;
  },
  'prompts.link-null-ignored': async (w) => {
    const p = (await w.req('POST', '/prompts', { key: w.A.apiKey, body: { type: 'chat' } })).body.data;
    const a = await w.assistant(w.A.apiKey, { chatPromptId: p.id });
    return (await w.req('PATCH', `/assistants/${a.id}`, { key: w.A.apiKey, body: { chatPromptId: null } })).body.data.chatPromptId;
  },
});
