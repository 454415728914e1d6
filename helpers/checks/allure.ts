/**
 * Allure labels and attachments of a clause test (called from helpers/checks/clause.ts `clauseTest`):
 * epic = spec section (`§5 Authentication`), feature = suite file, story = clause id, plus labels
 * `clause`, `section`, `level` and a link per clause to its spec section. On failure, the last
 * request and answer are attached as JSON with secrets redacted (again) and credential headers
 * reduced to their scheme word.
 */
import { relative } from 'node:path';
import * as allure from 'allure-js-commons';
import { currentTest } from '../record/current-test';
import { loadCatalogue, sectionOf, topSection, type Clause } from '../spec/catalogue';
import { redactHeaders, redactValue } from '../base/redact';
import { recordedExchanges } from '../record/recorder';
import { headingAnchor, readSpec, type SpecDoc } from '../spec/spec-doc';
import { readEnv } from '../base/env';

let catalogue: Map<string, Clause> | undefined;
let spec: SpecDoc | undefined | null;

function clauseInfo(id: string): { section: string; level: string } {
  try {
    catalogue ??= loadCatalogue();
  } catch {
    catalogue = new Map();
  }
  const c = catalogue.get(id);
  return { section: c?.section ?? sectionOf(id), level: c?.level ?? 'unknown' };
}

function specDoc(): SpecDoc | undefined {
  if (spec === undefined) spec = readSpec() ?? null;
  return spec ?? undefined;
}

/**
 * Link to the spec heading holding a clause section: `CONFORMANCE_SPEC_URL` with the heading's
 * anchor; undefined without that variable (no link leaves the repository unless configured).
 */
export function specLink(section: string): string | undefined {
  const base = readEnv('CONFORMANCE_SPEC_URL');
  if (!base) return undefined;
  const doc = specDoc();
  const heading = doc?.sections.filter((s) => section === s.number || section.startsWith(`${s.number}.`)).sort((a, b) => b.number.length - a.number.length)[0];
  return heading ? `${base}#${heading.anchor}` : `${base}#${headingAnchor(section)}`;
}

/** Epic name of a clause section: `§5 Authentication` (top-level section and its title). */
export function epicOf(section: string): string {
  const top = topSection(section);
  const title = specDoc()?.sections.find((s) => s.number === top)?.title;
  return title ? `§${top} ${title}` : `§${top}`;
}

/** Adds the Allure labels and links of the running test's clauses. Never throws. */
export async function clauseLabels(ids: string[]): Promise<void> {
  const file = currentTest()?.file?.filepath;
  if (file) await allure.feature(relative(process.cwd(), file));
  for (const id of ids) {
    const { section, level } = clauseInfo(id);
    await allure.epic(epicOf(section));
    await allure.story(id);
    await allure.label('clause', id);
    await allure.label('section', `§${section}`);
    await allure.label('level', level);
    const link = specLink(section);
    if (link) await allure.link(link, `§${id}`);
  }
}

/**
 * Attaches the last `count` (default 2) exchanges of the running test as "request and answer"
 * JSON, redacted. Used on failure only.
 */
export async function attachFailureEvidence(count = 2): Promise<void> {
  const exchanges = recordedExchanges();
  const last = exchanges.slice(-count).map((x) => {
    const copy = redactValue(x);
    if (copy.request?.headers) copy.request.headers = redactHeaders(copy.request.headers);
    if (copy.response?.headers) copy.response.headers = redactHeaders(copy.response.headers);
    return copy;
  });
  if (last.length) await allure.attachment('request and answer', JSON.stringify(last.length === 1 ? last[0] : last, null, 2), 'application/json');
}
