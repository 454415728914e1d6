/**
 * Report writers: everything under a report folder that is computed from the run record alone —
 * `conformance.json`, `conformance.md`, `conformance.html`, `spec.html` and the authorization
 * matrix (`authorization-matrix.md` / `.json`). Every file is redacted again right
 * before it is written (record-io.ts `scrubRecord`, then `redact` on the text).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunRecord } from './model';
import { redact } from '../base/redact';
import { renderMarkdown } from './markdown';
import { renderHtml } from './html';
import { renderSpecHtml } from './spec-html';
import { readSpec } from '../spec/spec-doc';
import { scrubRecord, writeRunRecord } from './record-io';
import { readEnv } from '../base/env';
import { AUTHORIZATION_MATRIX, AUTHORIZATION_MATRIX_JSON, authorizationMatrix, renderAuthorizationMatrix } from './authorization-matrix';

export { renderMarkdown } from './markdown';
export { renderHtml } from './html';

/**
 * Link to the spec for the reports: `CONFORMANCE_SPEC_URL` when set (e.g. where the
 * team publishes the spec), else none: a report never points outside the repository unless told to.
 */
export function specHref(): string | undefined {
  return readEnv('CONFORMANCE_SPEC_URL');
}

/** Paths of the files {@link writeReports} wrote. */
export interface WrittenReports {
  json?: string;
  markdown: string;
  html: string;
  /** `spec.html`, the annotated spec (written when the record has `spec.statements`). */
  spec?: string;
  /** `authorization-matrix.md` (written when the run recorded matrix cells). */
  authorizationMatrix?: string;
}

/**
 * Writes `conformance.md` and `conformance.html` (and `conformance.json` when `withJson`) into
 * `dir`, with `spec.html` when the record has statements and the authorization matrix when it
 * has matrix cells (then linked from the other two).
 */
export async function writeReports(run: RunRecord, dir: string, withJson = false): Promise<WrittenReports> {
  mkdirSync(dir, { recursive: true });
  const clean = scrubRecord(run);
  const cells = authorizationMatrix(clean);
  const matrix = cells ? AUTHORIZATION_MATRIX : undefined;
  const out: WrittenReports = { markdown: join(dir, 'conformance.md'), html: join(dir, 'conformance.html') };
  if (cells) {
    out.authorizationMatrix = join(dir, AUTHORIZATION_MATRIX);
    writeFileSync(out.authorizationMatrix, redact(renderAuthorizationMatrix(cells)));
    writeFileSync(join(dir, AUTHORIZATION_MATRIX_JSON), redact(`${JSON.stringify(cells, null, 2)}\n`));
  }
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
