/**
 * A model of the §4.5 catalogue state a tenant writes (issue 39, item 4), beside the merge and
 * lifecycle models: one tool with its `instruction` and optional `textInstructions` and the
 * per-assistant voice and text overrides of two assistants on it, the prompts made of each named
 * type, and the judgments of SMS reasons (§2.9, §4.3) and text test suites (§4.5, §8) through the
 * request-field oracle (helpers/generate/oracle-table.ts). suites/catalogue-model.test.ts draws
 * command sequences with fast-check, applies each to the target and here, and compares every
 * answer and read with what the model allows. Pure: no I/O.
 *
 * What the spec leaves open stays open here: a PUT that replaces or removes `textInstructions`
 * may keep or drop the text overrides written before (their texts become "maybe shown"); a text
 * override written while the tool has no textInstructions may be refused or kept; a DELETE of
 * the text override may or may not take the step overrides with it; the text-override read may
 * show the voice side. Only what every careful reading must show is asserted: a text override
 * written while the tool has textInstructions is shown until something may have removed it; a
 * text cleared for certain is never shown again; one assistant's override texts never show in
 * another's read; an empty description is not stored in place of the default.
 */
import { containsString } from '../spec/shapes';
import { ABSENT, getAt, readingHolds } from './paths';
import { judgeRow, type OracleRow } from './oracle';

/** An instruction document (§4.5 "title, description, steps"); steps as `{ title, description }` (their shape is not shown). */
export interface Doc {
  title: string;
  description: string;
  steps: { title: string; description: string }[];
}

/** A text override the model knows of: `sure` while every careful reading must show it. */
export interface TextOverride {
  text: string;
  sure: boolean;
}

/** One assistant's text overrides on the tool, and the texts cleared for certain (with the clause that cleared them). */
export interface AssistantOverrides {
  description: TextOverride | null;
  /** Step text overrides by step id. */
  steps: Record<string, TextOverride>;
  /** Texts a write removed for certain: never shown again in this assistant's read. */
  gone: Record<string, string>;
  /** Every text this assistant wrote, voice and text, kept or not: none may show in another assistant's read. */
  written: string[];
}

/** The prompt types §4.5 names. */
export const PROMPT_TYPES = ['chat', 'whisper_summary', 'voice_persona', 'ivr'] as const;
/** One of {@link PROMPT_TYPES}. */
export type PromptType = (typeof PROMPT_TYPES)[number];

/** The whole modelled state of one property run. */
export interface CatalogueModel {
  tool: { instruction: Doc; textInstructions: Doc | null; stepIds: string[] };
  /** What the last tool write did with textInstructions: the clause a mismatch of it breaks. */
  lastText: 'omitted' | 'null' | 'doc';
  overrides: [AssistantOverrides, AssistantOverrides];
  /** Ids of the prompts this run made (or found, on a live tenant), by type. */
  prompts: Record<PromptType, string[]>;
  /** Whether an empty description was written in this run (then no description may read ''). */
  emptyWritten: boolean;
}

/** A new assistant's overrides: none. */
function noOverrides(): AssistantOverrides {
  return { description: null, steps: {}, gone: {}, written: [] };
}

/** The model after the tool was created (or, on a live tenant, PUT) with `instruction` and `textInstructions`. */
export function initialCatalogue(instruction: Doc, textInstructions: Doc | null, stepIds: string[]): CatalogueModel {
  return {
    tool: { instruction: structuredClone(instruction), textInstructions: structuredClone(textInstructions), stepIds },
    lastText: textInstructions ? 'doc' : 'null',
    overrides: [noOverrides(), noOverrides()],
    prompts: { chat: [], whisper_summary: [], voice_persona: [], ivr: [] },
    emptyWritten: false,
  };
}

/** Every text override of one assistant becomes "maybe shown" (a write may have removed it). */
function unsure(o: AssistantOverrides): void {
  if (o.description) o.description.sure = false;
  for (const s of Object.values(o.steps)) s.sure = false;
}

/**
 * Applies an accepted `PUT /tools/{id}` (§4.5): `instruction` replaced; `textInstructions`
 * omitted keeps the stored value, null removes it, a document replaces it (both make the text
 * overrides "maybe shown": whether they survive is not stated); `stepIds` are those the answer shows.
 */
export function applyToolPut(m: CatalogueModel, instruction: Doc, text: Doc | null | undefined, stepIds: string[]): void {
  m.tool.instruction = structuredClone(instruction);
  m.lastText = text === undefined ? 'omitted' : text === null ? 'null' : 'doc';
  if (text !== undefined) {
    m.tool.textInstructions = structuredClone(text);
    m.overrides.forEach(unsure);
  }
  m.tool.stepIds = m.tool.textInstructions ? stepIds : [];
}

/** One place where the target differs from the model: the words and the clauses it breaks. */
export interface Breach {
  words: string;
  clauses: string[];
}

/** The step ids a tool answer shows for its textInstructions (all steps must carry a string id), else []. */
export function stepIdsOf(data: unknown): string[] {
  const steps = getAt(data, ['textInstructions', 'steps']);
  if (!Array.isArray(steps)) return [];
  const ids = steps.map((s) => (s && typeof s === 'object' ? (s as Record<string, unknown>).id : undefined));
  return ids.every((id) => typeof id === 'string') ? (ids as string[]) : [];
}

/** Differences between a document as the answer shows it and as sent: title, description, and each sent step's fields (a server may add a step id). */
function docDiff(shown: unknown, sent: Doc): string | undefined {
  const at = (p: (string | number)[]) => getAt(shown, p);
  if (at(['title']) !== sent.title) return `title ${JSON.stringify(at(['title']))}, not ${JSON.stringify(sent.title)}`;
  if (at(['description']) !== sent.description) return `description ${JSON.stringify(at(['description']))}, not ${JSON.stringify(sent.description)}`;
  const steps = at(['steps']);
  if (!Array.isArray(steps) || steps.length !== sent.steps.length)
    return `${Array.isArray(steps) ? steps.length : 'no'} step(s), not the ${sent.steps.length} sent (replaced, not appended to)`;
  const bad = sent.steps.findIndex((s, i) => at(['steps', i, 'title']) !== s.title || at(['steps', i, 'description']) !== s.description);
  return bad < 0 ? undefined : `step ${bad + 1} reads ${JSON.stringify(steps[bad])}, not ${JSON.stringify(sent.steps[bad])}`;
}

/**
 * Compares a tool answer (`data` of POST or PUT /tools, §4.5: no read of a tool is shown) with the
 * model: instruction as written, textInstructions as the model holds it (removed reads null or absent).
 */
export function judgeTool(m: CatalogueModel, data: unknown): Breach[] {
  const out: Breach[] = [];
  const ins = docDiff(getAt(data, ['instruction']), m.tool.instruction);
  if (ins) out.push({ words: `instruction: ${ins}`, clauses: ['4.5/tool-instruction-shape'] });
  const shown = getAt(data, ['textInstructions']);
  const want = m.tool.textInstructions;
  if (want === null) {
    if (!readingHolds({ kind: 'cleared', readings: ['null', 'absent'] }, shown))
      out.push({
        words: `textInstructions reads ${JSON.stringify(shown === ABSENT ? undefined : shown)}, but was removed (null)`,
        clauses: ['4.5/tool-put-null-removes-text-instructions'],
      });
    return out;
  }
  const diff = docDiff(shown === ABSENT ? undefined : shown, want);
  const clause = m.lastText === 'omitted' ? '4.5/tool-put-keeps-text-instructions' : '4.5/tool-instruction-shape';
  if (diff)
    out.push({ words: `textInstructions: ${diff}${m.lastText === 'omitted' ? ' (the PUT omitted it: the stored value stays)' : ''}`, clauses: [clause] });
  return out;
}

/** What an override write is: which route, and its text ('' restores the default). */
export type OverrideWrite =
  | { route: 'text-description'; text: string }
  | { route: 'voice-description'; text: string }
  | { route: 'step'; step: number; text: string }
  | { route: 'delete-step'; step: number }
  | { route: 'delete-text' };

/** Whether the model requires 2xx of a write, or allows a refusal too (a text override without textInstructions, §4.5). */
export function mustAccept(m: CatalogueModel, w: OverrideWrite): boolean {
  return w.route === 'voice-description' || m.tool.textInstructions !== null;
}

/** Marks `old` removed from `o`: for certain (`clause`), or, where the write may not apply (no textInstructions), no longer judged. */
function remove(o: AssistantOverrides, old: TextOverride | null | undefined, clause: string | undefined, now?: string): void {
  if (old && old.text !== now && clause) o.gone[old.text] = clause;
}

/**
 * Applies an accepted override write of assistant `a` (§4.5). A text override written while the
 * tool has textInstructions must be shown, and the one it replaced is gone; written without them
 * (a text override applies only while they exist) it may be kept or not, and what it replaced is
 * no longer judged. An empty description restores the default; DELETE …/text-override clears the
 * text description for certain and may or may not take the step overrides.
 */
export function applyOverride(m: CatalogueModel, a: 0 | 1, w: OverrideWrite): void {
  const o = m.overrides[a];
  const sure = m.tool.textInstructions !== null;
  const stepId = 'step' in w ? m.tool.stepIds[w.step] : undefined;
  if ('text' in w && w.text !== '') o.written.push(w.text);
  if ('text' in w && w.text === '') m.emptyWritten = true;
  if (w.route === 'text-description') {
    const clause = w.text === '' ? '4.5/tool-empty-description-restores' : '4.5/tool-overrides-independent';
    remove(o, o.description, sure ? clause : undefined, w.text);
    o.description = w.text === '' ? null : { text: w.text, sure };
  } else if (w.route === 'step' && stepId) {
    remove(o, o.steps[stepId], '4.5/tool-overrides-independent', w.text);
    o.steps[stepId] = { text: w.text, sure };
  } else if (w.route === 'delete-step' && stepId) {
    remove(o, o.steps[stepId], '4.5/tool-overrides-independent');
    delete o.steps[stepId];
  } else if (w.route === 'delete-text') {
    remove(o, o.description, '4.5/tool-overrides-independent');
    o.description = null;
    for (const s of Object.values(o.steps)) s.sure = false;
  }
}

/** Whether the model holds a text override of `a` every careful reading must show. */
export function holdsSure(m: CatalogueModel, a: 0 | 1): boolean {
  const o = m.overrides[a];
  return m.tool.textInstructions !== null && [o.description, ...Object.values(o.steps)].some((x) => x?.sure);
}

/** True when some property named like `description` (any case) holds '' anywhere in `value`. */
export function storesEmptyDescription(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(storesEmptyDescription);
  if (value && typeof value === 'object') return Object.entries(value).some(([k, v]) => (/description/i.test(k) && v === '') || storesEmptyDescription(v));
  return false;
}

/**
 * Judges `GET /assistants/{id}/tools/{toolId}/text-override` of assistant `a` (§4.5): 200, or 404
 * while the model holds no override it must show (any 4xx while the tool has no textInstructions);
 * every sure override shown; no text cleared for certain shown; none of the other assistant's texts
 * shown; no description stored as ''.
 */
export function judgeTextRead(m: CatalogueModel, a: 0 | 1, status: number, data: unknown): Breach[] {
  const sure = holdsSure(m, a);
  // Nothing to show: no override yet (404), or a tool without textInstructions, where a text override does not apply (any 4xx).
  if (!sure && (status === 404 || (m.tool.textInstructions === null && status >= 400 && status < 500))) return [];
  if (status !== 200) return [{ words: `answered ${status}, expected 200${sure ? '' : ' or 404'}`, clauses: ['4.5/tool-overrides-independent'] }];
  const o = m.overrides[a];
  const out: Breach[] = [];
  const shows = (t: string) => containsString(data, t);
  if (m.tool.textInstructions !== null)
    for (const x of [o.description, ...Object.values(o.steps)])
      if (x?.sure && !shows(x.text))
        out.push({ words: `the text override ${JSON.stringify(x.text)} is not shown`, clauses: ['4.5/tool-overrides-independent'] });
  for (const [t, clause] of Object.entries(o.gone))
    if (shows(t)) out.push({ words: `the text ${JSON.stringify(t)}, cleared, is still shown`, clauses: [clause] });
  for (const t of m.overrides[1 - a].written) {
    if (shows(t)) out.push({ words: `the other assistant's override text ${JSON.stringify(t)} is shown`, clauses: ['4.5/tool-overrides-per-assistant'] });
  }
  if (m.emptyWritten && storesEmptyDescription(data))
    out.push({ words: 'a description field holds the empty string written, not the default', clauses: ['4.5/tool-empty-description-restores'] });
  return out;
}

/**
 * Judges `GET /prompts?type=` rows (§4.5) against the prompts the run made: each of `type` is
 * listed, none of another type is (other rows of a shared tenant are not judged).
 */
export function judgePromptList(m: CatalogueModel, type: PromptType, rows: unknown[]): Breach[] {
  const ids = new Set(rows.map((r) => (r && typeof r === 'object' ? (r as Record<string, unknown>).id : undefined)));
  const out: Breach[] = [];
  for (const id of m.prompts[type])
    if (!ids.has(id)) out.push({ words: `the ${type} prompt ${id} made in this run is not listed`, clauses: ['4.5/prompt-filter-by-type'] });
  for (const other of PROMPT_TYPES.filter((t) => t !== type))
    for (const id of m.prompts[other])
      if (ids.has(id)) out.push({ words: `the ${other} prompt ${id} is listed under type=${type}`, clauses: ['4.5/prompt-filter-by-type'] });
  return out;
}

/** The oracle's word on a whole body: refused if any field must be refused, accepted if every field must be, else open; with what each accepted field must read back. */
export interface BodyJudgement {
  verdict: 'accept' | 'refuse' | 'either';
  clauses: string[];
  rules: string[];
  /** Fields whose accepted value the answer must show, with the reading. */
  reads: { field: string; reading: NonNullable<ReturnType<typeof judgeRow>['reads']>; clauses: string[] }[];
}

/** Judges each field of `body` that has a row in `rows` (fields without a row are judged by the caller). */
export function judgeBody(rows: readonly OracleRow[], body: Record<string, unknown>): BodyJudgement {
  const js = rows.filter((r) => r.path[0] in body).map((r) => ({ row: r, j: judgeRow(r, body[r.path[0]]) }));
  const refused = js.filter((x) => x.j.verdict === 'refuse');
  const open = js.filter((x) => x.j.verdict === 'either');
  const verdict = refused.length ? 'refuse' : open.length ? 'either' : 'accept';
  const cited = refused.length ? refused : js;
  return {
    verdict,
    clauses: [...new Set(cited.flatMap((x) => x.j.clauses))],
    rules: cited.map((x) => x.j.rule),
    reads: js.filter((x) => x.j.reads).map((x) => ({ field: x.row.path[0], reading: x.j.reads!, clauses: x.j.clauses })),
  };
}

/** Every clause the model's judgments of tools, overrides and prompts name. */
export const CATALOGUE_MODEL_CLAUSES = [
  '4.5/tool-instruction-shape',
  '4.5/tool-put-keeps-text-instructions',
  '4.5/tool-put-null-removes-text-instructions',
  '8/put-replay-converges',
  '4.5/tool-overrides-independent',
  '4.5/tool-overrides-per-assistant',
  '4.5/tool-empty-description-restores',
  '4.5/prompt-types',
  '4.5/prompt-filter-by-type',
];
