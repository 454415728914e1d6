/** The catalogue model's judgments (helpers/generate/catalogue-model.ts): tools, per-assistant overrides, prompt lists, bodies through the oracle; each both ways. */
import { describe, expect, it } from 'vitest';
import {
  applyOverride,
  applyToolPut,
  initialCatalogue,
  judgeBody,
  judgePromptList,
  judgeTextRead,
  judgeTool,
  mustAccept,
  stepIdsOf,
  type Doc,
} from '../../helpers/generate/catalogue-model';
import { ORACLE } from '../../helpers/generate/oracle-table';

const INS: Doc = { title: 'Look up', description: 'Look an order up.', steps: [{ title: 'Ask', description: 'Ask for it.' }] };
const TEXT: Doc = {
  title: 'Look up (text)',
  description: 'Ask by text.',
  steps: [
    { title: 'Ask', description: 'One message.' },
    { title: 'Answer', description: 'Short.' },
  ],
};
const answer = (text: Doc | null, ids = ['s1', 's2']) => ({
  id: 't',
  instruction: INS,
  textInstructions: text && { ...text, steps: text.steps.map((s, i) => ({ ...s, id: ids[i] })) },
});

describe('catalogue model: tools', () => {
  it('keeps textInstructions on a PUT that omits it, removes it on null, and judges the answer by that', () => {
    const m = initialCatalogue(INS, TEXT, ['s1', 's2']);
    expect(judgeTool(m, answer(TEXT))).toEqual([]);
    applyToolPut(m, INS, undefined, ['s1', 's2']);
    expect(judgeTool(m, answer(null))[0].clauses).toEqual(['4.5/tool-put-keeps-text-instructions']);
    applyToolPut(m, INS, null, []);
    expect(judgeTool(m, { instruction: INS })).toEqual([]);
    applyToolPut(m, INS, undefined, []);
    expect(judgeTool(m, answer(TEXT))[0].clauses).toEqual(['4.5/tool-put-null-removes-text-instructions']);
  });

  it('refuses steps appended instead of replaced, and reads step ids only when every step has one', () => {
    const m = initialCatalogue(INS, TEXT, []);
    const appended = { ...answer(TEXT), instruction: { ...INS, steps: [...INS.steps, ...INS.steps] } };
    expect(judgeTool(m, appended)[0].words).toMatch(/2 step\(s\), not the 1 sent/);
    expect(stepIdsOf(answer(TEXT))).toEqual(['s1', 's2']);
    expect(stepIdsOf({ textInstructions: { steps: [{ id: 's1' }, {}] } })).toEqual([]);
  });
});

describe('catalogue model: overrides', () => {
  const withText = () => initialCatalogue(INS, TEXT, ['s1', 's2']);

  it('shows a text override written while textInstructions exist, and no longer one cleared', () => {
    const m = withText();
    applyOverride(m, 0, { route: 'text-description', text: 'mine ·1' });
    expect(judgeTextRead(m, 0, 200, { text: { descriptionOverride: 'mine ·1' } })).toEqual([]);
    expect(judgeTextRead(m, 0, 200, { text: {} })[0].clauses).toEqual(['4.5/tool-overrides-independent']);
    expect(judgeTextRead(m, 0, 404, undefined)).toHaveLength(1);
    applyOverride(m, 0, { route: 'text-description', text: '' });
    expect(judgeTextRead(m, 0, 404, undefined)).toEqual([]);
    expect(judgeTextRead(m, 0, 200, { d: 'mine ·1' })[0].clauses).toEqual(['4.5/tool-empty-description-restores']);
    expect(judgeTextRead(m, 0, 200, { description: '' })[0].clauses).toEqual(['4.5/tool-empty-description-restores']);
  });

  it('keeps a voice write apart from the text side, and one assistant apart from the other', () => {
    const m = withText();
    applyOverride(m, 0, { route: 'text-description', text: 'text ·1' });
    applyOverride(m, 0, { route: 'voice-description', text: 'voice ·2' });
    expect(judgeTextRead(m, 0, 200, { voice: 'voice ·2', text: 'text ·1' })).toEqual([]);
    expect(judgeTextRead(m, 1, 200, { voice: 'voice ·2' })[0].clauses).toEqual(['4.5/tool-overrides-per-assistant']);
    expect(judgeTextRead(m, 1, 404, undefined)).toEqual([]);
  });

  it('deletes one step override and keeps the other; a DELETE of the text override may take the steps or not', () => {
    const m = withText();
    applyOverride(m, 0, { route: 'step', step: 0, text: 'one ·1' });
    applyOverride(m, 0, { route: 'step', step: 1, text: 'two ·2' });
    applyOverride(m, 0, { route: 'delete-step', step: 0 });
    expect(judgeTextRead(m, 0, 200, ['two ·2'])).toEqual([]);
    expect(judgeTextRead(m, 0, 200, [])[0].words).toMatch(/two ·2/);
    expect(judgeTextRead(m, 0, 200, ['two ·2', 'one ·1'])[0].words).toMatch(/one ·1.*cleared/);
    applyOverride(m, 0, { route: 'delete-text' });
    expect(judgeTextRead(m, 0, 200, [])).toEqual([]);
    expect(judgeTextRead(m, 0, 200, ['two ·2'])).toEqual([]);
  });

  it('judges no presence while the tool has no textInstructions, and lets text writes then be refused', () => {
    const m = withText();
    applyOverride(m, 0, { route: 'text-description', text: 'kept ·1' });
    applyToolPut(m, INS, null, []);
    expect(mustAccept(m, { route: 'text-description', text: 'x' })).toBe(false);
    expect(mustAccept(m, { route: 'voice-description', text: 'x' })).toBe(true);
    expect(judgeTextRead(m, 0, 200, {})).toEqual([]);
    applyToolPut(m, INS, TEXT, ['s3', 's4']);
    expect(judgeTextRead(m, 0, 200, {})).toEqual([]);
  });
});

describe('catalogue model: prompts and bodies', () => {
  it('lists every prompt of the type made in the run, and none of another type', () => {
    const m = initialCatalogue(INS, null, []);
    m.prompts.chat.push('p1');
    m.prompts.ivr.push('p2');
    expect(judgePromptList(m, 'chat', [{ id: 'p1' }, { id: 'other-tenant-row' }])).toEqual([]);
    expect(judgePromptList(m, 'chat', [{ id: 'x' }])[0].words).toMatch(/p1 made in this run is not listed/);
    expect(judgePromptList(m, 'chat', [{ id: 'p1' }, { id: 'p2' }])[0].words).toMatch(/ivr prompt p2 is listed under type=chat/);
  });

  it('judges a body through the oracle: refused when a field must be, accepted when every field must be', () => {
    const suite = ORACLE.filter((r) => r.operation === 'POST /test-suites');
    expect(judgeBody(suite, { mode: 'voice', iterations: 1 }).verdict).toBe('refuse');
    expect(judgeBody(suite, { mode: 'text', iterations: 11 }).verdict).toBe('refuse');
    expect(judgeBody(suite, { mode: 'text', iterations: 2.5 }).verdict).toBe('refuse');
    expect(judgeBody(suite, { mode: 'text', iterations: 10 }).verdict).toBe('accept');
    expect(judgeBody(suite, { mode: 'text', cases: new Array(13).fill({}) }).verdict).toBe('refuse');
    const sms = ORACLE.filter((r) => r.operation === 'POST /sms-reasons');
    const j = judgeBody(sms, { name: 'Adresse 📍', content: 'x' });
    expect(j.verdict).toBe('accept');
    expect(j.reads.map((r) => r.field)).toEqual(['name', 'content']);
  });
});
