/**
 * Report writers: everything under a report folder that is computed from the run record alone —
 * `conformance.json`, `conformance.md` and `conformance.html`. Every file is redacted again right
 * before it is written (record-io.ts `scrubRecord`, then `redact` on the text).
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunRecord } from './model';
import { redact } from '../redact';
import { renderMarkdown } from './markdown';
import { renderHtml } from './html';
import { renderSpecHtml } from './spec-html';
import { readSpec } from './spec-doc';
import { scrubRecord, writeRunRecord } from './record-io';
import { SPEC_URL_VAR } from './env';

export { renderMarkdown } from './markdown';
export { renderHtml } from './html';

/** Name of the authorization matrix the authorization suite writes next to the reports. */
export const AUTHORIZATION_MATRIX = 'authorization-matrix.md';

/**
 * Link to the spec for the reports: `CONFORMANCE_SPEC_URL` when set (e.g. where the
 * team publishes the spec), else none: a report never points outside the repository unless told to.
 */
export function specHref(): string | undefined {
  return process.env[SPEC_URL_VAR] || undefined;
}

/** Paths of the files {@link writeReports} wrote. */
export interface WrittenReports {
  json?: string;
  markdown: string;
  html: string;
  /** `spec.html`, the annotated spec (written when the record has `spec.statements`). */
  spec?: string;
}

/**
 * Writes `conformance.md` and `conformance.html` (and `conformance.json` when `withJson`) into `dir`.
 * Links `authorization-matrix.md` when it exists in `dir`.
 */
export async function writeReports(run: RunRecord, dir: string, withJson = false): Promise<WrittenReports> {
  mkdirSync(dir, { recursive: true });
  const clean = scrubRecord(run);
  const matrix = existsSync(join(dir, AUTHORIZATION_MATRIX)) ? AUTHORIZATION_MATRIX : undefined;
  const out: WrittenReports = { markdown: join(dir, 'conformance.md'), html: join(dir, 'conformance.html') };
  if (withJson) out.json = writeRunRecord(clean, dir);
  writeFileSync(out.markdown, redact(renderMarkdown(clean, { authorizationMatrix: matrix, htmlReport: 'conformance.html' })));
  writeFileSync(out.html, redact(renderHtml(clean, { authorizationMatrix: matrix, specHref: specHref() })));
  const doc = clean.spec ? readSpec() : undefined;
  if (doc) {
    out.spec = join(dir, 'spec.html');
    writeFileSync(out.spec, redact(renderSpecHtml(doc, clean)));
  }
  return out;
}
