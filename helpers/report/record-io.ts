/**
 * Reading, checking, redacting and writing run records. Every report file passes through
 * {@link scrubRecord} (redaction of registered secrets and of credential headers in evidence) right
 * before it is written, so a record that came from elsewhere (a shard, a baseline) is redacted again.
 */
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { redact, redactHeaders, redactValue, registerSecret, registerUrlCredentials } from '../base/redact';
import { readTargetConfig } from '../target/target';
import { readEnv, secretsOfEnv, type EnvSource } from '../base/env';
import type { Exchange } from '../base/exchange';
import type { RunRecord } from './model';

const HERE = dirname(fileURLToPath(import.meta.url));

let validateRecord: ValidateFunction | undefined;

/** Error thrown when a file is not a run record; the message names the file and each violation. */
export class RunRecordError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RunRecordError';
  }
}

/**
 * Checks that `value` is a run record (helpers/report/run-record.schema.json).
 * @throws RunRecordError listing each violation with its JSON path; `source` names the file.
 */
export function assertRunRecord(value: unknown, source = 'run record'): asserts value is RunRecord {
  if (!validateRecord) {
    const ajv = new Ajv2020({ allErrors: true, strict: false, allowUnionTypes: true });
    addFormats(ajv);
    validateRecord = ajv.compile(JSON.parse(readFileSync(join(HERE, 'run-record.schema.json'), 'utf8')));
  }
  if (!validateRecord(value)) {
    const issues = (validateRecord.errors ?? []).slice(0, 10).map((e) => `${e.instancePath || '/'} ${e.message}`);
    throw new RunRecordError(`${source} is not a conformance run record (docs/report-format.md):\n  ${issues.join('\n  ')}`);
  }
}

/**
 * Reads and checks a run record file (`reports/conformance.json` of some run).
 * @throws RunRecordError when the file is missing, not JSON, or not a run record.
 */
export function readRunRecord(file: string): RunRecord {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new RunRecordError(`cannot read run record ${file}: ${(e as Error).message}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new RunRecordError(`${file} is not JSON: ${(e as Error).message}`);
  }
  assertRunRecord(value, file);
  return value;
}

/**
 * Registers the secrets this process can know of (live keys and the client server secret from the
 * environment / `.env`, and any `CORE_API_*KEY*` or `*SECRET*` variable) so {@link redact} hides them.
 * Never throws.
 */
export function registerEnvironmentSecrets(env?: EnvSource): void {
  try {
    const t = readTargetConfig(env);
    if (t.live) for (const [k, v] of Object.entries(t.live)) if (/key|secret/i.test(k)) registerSecret(v as string, k);
  } catch {
    // no usable target config: fall back to the variable names below
  }
  for (const { name, value } of secretsOfEnv(env)) if (/^CORE_API_.*(KEY|SECRET)/.test(name)) registerSecret(value, name);
  // A URL-shaped trigger may carry a user, a password or a token in its query.
  try {
    registerUrlCredentials(readEnv('CORE_API_EVENT_TRIGGER', env), 'CORE_API_EVENT_TRIGGER');
  } catch {
    // never throws (see above)
  }
}

/** One evidence entry with its credential headers reduced; anything that is not an exchange is kept as is. */
function scrubEvidence(e: unknown): unknown {
  if (!e || typeof e !== 'object') return e;
  const out: Partial<Exchange> = { ...e };
  if (out.request && typeof out.request === 'object') {
    out.request = { ...out.request };
    if (out.request.headers) out.request.headers = redactHeaders(out.request.headers);
  }
  if (out.response && typeof out.response === 'object') {
    out.response = { ...out.response };
    if (out.response.headers) out.response.headers = redactHeaders(out.response.headers);
  }
  return out;
}

/**
 * A copy of `run` with every registered secret redacted and every credential header in evidence
 * (`authorization`, `x-api-key`, `x-service-core-secret`) reduced to its scheme word.
 */
export function scrubRecord(run: RunRecord): RunRecord {
  const copy = redactValue(run);
  for (const t of copy.tests) if (t.evidence) t.evidence = t.evidence.map(scrubEvidence);
  return copy;
}

/** Writes a run record as `conformance.json` into `dir` (created if needed), scrubbed. Returns the path. */
export function writeRunRecord(run: RunRecord, dir: string): string {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'conformance.json');
  writeFileSync(file, redact(JSON.stringify(scrubRecord(run), null, 2)));
  return file;
}
