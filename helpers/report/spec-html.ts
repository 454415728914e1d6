/**
 * `reports/spec.html`: the spec itself, each statement marked by its verdict in a run.
 * Self-contained (inline CSS, no script, no network): every statement is a `<details>` whose
 * summary is the statement text coloured by verdict; opening it shows its clauses (linked to a
 * clause list at the end with their tests) and the failure message. The first screen lists the failing statements, linked to their place.
 */
import type { RunRecord } from './model';
import type { SpecDoc } from '../spec/spec-doc';
import { statementKey, type StatementResult } from './statements';

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const anchorOf = (i: number) => `st-${i}`;
const clauseAnchor = (id: string) => `clause-${id.replace(/[^A-Za-z0-9_-]/g, '_')}`;

/**
 * One line on a statement's ways (format 1.7): how many are listed, covered by a passing clause,
 * and explained, and whether the statement is strong. Empty for records without ways.
 */
function waysLine(r: { ways?: { tests: string[]; explained: number }; strong?: boolean } | undefined): string {
  if (!r?.ways) return '';
  const passing = r.ways.tests.length;
  return `<p class="ways">Ways (spec/statements.json): ${passing + r.ways.explained} listed, ${passing} covered by a fault and a test clause, ${r.ways.explained} explained; ${
    r.strong ? 'strong: every way covered by a passing clause or explained' : 'not strong: a covering clause did not pass in this run'
  }.</p>`;
}

/** Colours per verdict (background, border). */
const COLOURS: Record<string, string> = {
  pass: '#e6f4ea',
  fail: '#fde2e1',
  error: '#fbe3c9',
  skip: '#eeeeee',
  'not-covered': '#fff6bf',
  informative: '#ffffff',
  'not-testable': '#ffffff',
};

type ClauseOf = RunRecord['clauses'][number];

/** A statement's clauses, each linked to the clause list, with its verdict and any failure message; records each id in `used`. */
function statementClausesHtml(r: StatementResult | undefined, clauses: Map<string, ClauseOf>, used: Set<string>): string {
  return (r?.clauses ?? [])
    .map((cid) => {
      used.add(cid);
      const c = clauses.get(cid);
      return `<li class="v-${esc(c?.verdict ?? 'absent')}"><a href="#${clauseAnchor(cid)}"><code>${esc(cid)}</code></a> <b>${esc(c?.verdict ?? 'absent')}</b>${
        c && (c.verdict === 'fail' || c.verdict === 'error') && c.message ? `<pre>${esc(c.message)}</pre>` : ''
      }</li>`;
    })
    .join('');
}

/** One statement as a `<details>` coloured by its verdict, opening on its key, clauses and ways. */
function statementHtml(text: string, key: string, id: string, verdict: string, r: StatementResult | undefined, detail: string): string {
  return `<details class="st v-${verdict}" id="${id}" data-verdict="${verdict}" data-key="${esc(key)}"><summary><span class="badge">${verdict}</span> ${esc(
    text,
  )}</summary><div class="detail"><div>key <code>${esc(key)}</code></div>${
    detail ? `<ul>${detail}</ul>` : `<p>No clause tests this statement${verdict === 'not-covered' ? '' : ` (${verdict})`}.</p>`
  }${waysLine(r)}</div></details>`;
}

/** The spec's sections with their statements marked (`body`), the failing statements' links, and the clauses they name. */
function annotateSections(doc: SpecDoc, run: RunRecord): { body: string[]; failing: string[]; used: Set<string> } {
  const results = new Map<string, StatementResult>((run.spec?.statements ?? []).map((s) => [s.key, s]));
  const clauses = new Map(run.clauses.map((c) => [c.id, c]));
  const failing: string[] = [];
  const body: string[] = [];
  let i = 0;
  const used = new Set<string>();
  for (const sec of doc.sections) {
    const h = Math.min(6, Math.max(2, sec.depth));
    body.push(`<h${h} id="${esc(sec.anchor)}">${esc(sec.number)}. ${esc(sec.title)}</h${h}>`);
    for (const st of sec.statements) {
      const key = statementKey(st);
      const r = results.get(key);
      const verdict = r?.verdict ?? 'not-covered';
      const id = anchorOf(i++);
      if (verdict === 'fail' || verdict === 'error')
        failing.push(`<li><a href="#${id}">§${esc(st.address)}</a> <b>${verdict}</b> ${esc(st.text.slice(0, 140))}</li>`);
      body.push(statementHtml(st.text, key, id, verdict, r, statementClausesHtml(r, clauses, used)));
    }
  }
  return { body, failing, used };
}

/** The run's target and time, statement coverage and strength, and statement counts per verdict. */
function runLineHtml(run: RunRecord): string {
  const counts: Record<string, number> = {};
  for (const r of run.spec?.statements ?? []) counts[r.verdict] = (counts[r.verdict] ?? 0) + 1;
  return `<p>Target <code>${esc(run.target.mode)}</code> ${esc(run.target.baseUrl)}, ${esc(run.startedAt)}.
Statement coverage: ${run.summary.statementCoverage === undefined ? 'n/a' : `${(run.summary.statementCoverage * 100).toFixed(1)}%`}
(statements linked to a judged clause).
Strength: ${run.summary.statementStrength === undefined ? 'n/a' : `${(run.summary.statementStrength * 100).toFixed(1)}%`}
(statements whose listed ways are all covered by a passing test or explained).
${Object.entries(counts)
  .map(([v, n]) => `${esc(v)}: ${n}`)
  .join(', ')}</p>`;
}

/** The clauses the statements name, in first-named order, each with its verdict, text, message and tests. */
function clauseListHtml(run: RunRecord, used: Set<string>): string {
  const clauses = new Map(run.clauses.map((c) => [c.id, c]));
  return [...used]
    .map((cid) => clauses.get(cid))
    .filter((c) => !!c)
    .map(
      (c) =>
        `<div class="clause v-${esc(c!.verdict)}" id="${clauseAnchor(c!.id)}"><code>${esc(c!.id)}</code> <b>${esc(c!.verdict)}</b> ${esc(c!.text)}${
          c!.message ? `<pre>${esc(c!.message)}</pre>` : ''
        }<ul class="tests">${c!.tests.map((t) => `<li>${esc(t)}</li>`).join('')}</ul></div>`,
    )
    .join('\n');
}

/**
 * Renders the annotated spec. `run.spec.statements` must be in the spec's statement order (as
 * written by `attachStatements`); statements of `doc` without a result show as `not-covered`.
 * Returns the whole HTML document (string). Never throws on a record without `spec`.
 */
export function renderSpecHtml(doc: SpecDoc, run: RunRecord): string {
  const { body, failing, used } = annotateSections(doc, run);
  const css = Object.entries(COLOURS)
    .map(([v, c]) => `.v-${v}>summary,.v-${v}{background:${c}}`)
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${esc(doc.title)} — annotated</title>
<style>
body{font-family:system-ui,sans-serif;max-width:60rem;margin:1rem auto;padding:0 1rem;line-height:1.4}
details.st{margin:.2rem 0;border-left:4px solid #ccc;padding-left:.4rem}
details.st.v-fail,details.st.v-error{border-left-color:#c00}
details.st.v-pass{border-left-color:#2a7}
.badge{font-size:.75em;text-transform:uppercase;padding:0 .3em;border:1px solid #999;border-radius:3px}
summary{cursor:pointer}
pre{white-space:pre-wrap;background:#f6f6f6;padding:.3rem}
${css}
</style></head><body>
<h1>${esc(doc.title)}</h1>
${runLineHtml(run)}
<section id="failing"><h2>Failing statements (${failing.length})</h2>
${failing.length ? `<ul>${failing.join('\n')}</ul>` : '<p>None.</p>'}</section>
<hr>
${body.join('\n')}
<hr>
<h2 id="clauses">Clauses and their tests</h2>
${clauseListHtml(run, used)}
</body></html>
`;
}
