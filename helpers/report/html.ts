/**
 * `reports/conformance.html`: one self-contained static page (inline CSS and JS, no network) for a
 * person. The first screen says PASS or FAIL, the clause counts, the coverage figure, what changed
 * since the baseline, and which clauses fail and why; below, every clause grouped by spec section,
 * filterable by verdict, each failure expandable to its evidence (checks, request, answer).
 */
import type { ClauseRecord, ClauseVerdict, RunRecord } from './model';
import { CLAUSE_VERDICTS, outageHeading } from './model';
import type { ClauseChange, RunComparison } from './model';
import { byClauseId, cut, describeAnswer, describeRequest, evidenceFor, firstLine, topOf, whyLine } from './evidence';
import { headingAnchor } from '../spec/spec-doc';
import { seconds } from '../base/values';
import { timingSentences, timingSummary } from './timing';

/** Options of {@link renderHtml}. */
export interface HtmlOptions {
  /** Link to the spec document (`CONFORMANCE_SPEC_URL`); without it, sections and clauses are not linked out of the report. */
  specHref?: string;
  /** Relative link to the authorization matrix (reports/authorization-matrix.md), shown when given. */
  authorizationMatrix?: string;
}

/** Escapes text for HTML element content and attribute values. */
export function esc(text: unknown): string {
  return String(text ?? '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

const LABEL: Record<ClauseVerdict, string> = {
  fail: 'fail',
  error: 'error',
  'not-covered': 'not covered',
  skip: 'skip',
  pass: 'pass',
  'not-testable': 'not testable',
};

/** Link to the spec heading that holds a clause section. */
function sectionLink(run: RunRecord, section: string, specHref: string | undefined): string | undefined {
  if (!specHref) return undefined;
  const numbers = Object.keys(run.sections ?? {});
  const best = numbers.filter((n) => section === n || section.startsWith(`${n}.`)).sort((a, b) => b.length - a.length)[0];
  if (!best) return specHref;
  const heading = `${best}${best.includes('.') ? '' : '.'} ${run.sections![best]}`;
  return `${specHref}#${headingAnchor(heading)}`;
}

function badge(v: ClauseVerdict): string {
  return `<span class="badge v-${v}">${esc(LABEL[v])}</span>`;
}

function evidenceHtml(run: RunRecord, c: ClauseRecord): string {
  const evs = evidenceFor(run, c, 3);
  if (!evs.length) return `<pre>${esc(cut(c.message, 3000))}</pre>`;
  return evs
    .map((ev) => {
      const why = ev.details.length ? ev.details.join('\n\n') : (ev.test.message ?? '');
      const xs = ev.exchanges
        .map(
          (x, i) =>
            `<div class="exchange"><div class="xh">${i === ev.exchanges.length - 1 ? 'last request' : 'earlier request'}</div><pre>${esc(describeRequest(x))}</pre><div class="xh">answer</div><pre>${esc(describeAnswer(x))}</pre></div>`,
        )
        .join('');
      const found = ev.found
        .map(
          (f) =>
            `<table class="ea"><tr><th>expected</th><td>${esc(cut(f.expected ?? '', 600))}</td></tr><tr><th>actual</th><td>${esc(cut(f.actual ?? '', 600))}</td></tr></table>`,
        )
        .join('');
      return `<div class="ev"><div class="evt">${ev.test.status === 'error' ? 'errored' : 'failed'}: ${esc(ev.test.name)} <span class="file">${esc(ev.test.file)}</span></div>${found}<pre class="why">${esc(cut(why, 4000))}</pre>${xs}</div>`;
    })
    .join('');
}

function changeRows(title: string, list: ClauseChange[], cls: string): string {
  if (!list.length) return '';
  const items = list
    .map(
      (c) =>
        `<li><a href="#c-${esc(c.id)}"><code>${esc(c.id)}</code></a> <span class="lvl">${esc(c.level)}</span> ${esc(c.from)} → ${esc(c.to)} — ${esc(c.text)}${c.message ? ` <span class="reason">${esc(whyLine(c.message, 160))}</span>` : ''}</li>`,
    )
    .join('');
  return `<div class="chg ${cls}"><h3>${esc(title)} (${list.length})</h3><ul>${items}</ul></div>`;
}

/**
 * The comparison with the baseline. Regressions are shown at once; the other changes (fixes, newly
 * skipped, other verdict changes, new drift, request counts) sit in one expander so the failing
 * clauses below still fit on the first screen.
 */
function comparisonHtml(c: RunComparison): string {
  const rest = [
    changeRows('Fixes: fail → pass', c.fixes, 'good'),
    changeRows('Newly skipped', c.newlySkipped, 'meh'),
    changeRows('Other verdict changes', c.otherChanges, 'meh'),
  ];
  if (c.newDrift.length)
    rest.push(
      `<div class="chg meh"><h3>New drift (${c.newDrift.length}, informational)</h3><ul>${c.newDrift.map((d) => `<li>${esc(d.kind)} <code>${esc(d.what)}</code> at ${esc(d.where)}</li>`).join('')}</ul></div>`,
    );
  if (c.requestChanges.length)
    rest.push(
      `<div class="chg meh"><h3>Request counts changed</h3><table class="small"><tr><th>suite file</th><th>before</th><th>after</th></tr>${c.requestChanges.map((r) => `<tr><td>${esc(r.file)}</td><td class="n">${r.before}</td><td class="n">${r.after}</td></tr>`).join('')}</table></div>`,
    );
  const restHtml = rest.filter(Boolean).join('');
  const summary = `${c.regressions.length} regressions, ${c.fixes.length} fixes, ${c.newlySkipped.length} newly skipped, ${c.otherChanges.length} other verdict changes, ${c.newDrift.length} new drift, requests ${c.requestTotals.before} → ${c.requestTotals.after}`;
  const base = `${c.baseline.file ? `<code>${esc(c.baseline.file)}</code> · ` : ''}${esc(c.baseline.target.mode)} ${esc(c.baseline.target.baseUrl)} · ${esc(c.baseline.startedAt)}`;
  return `<section id="changes"><h2>Since the baseline <span class="meta">${esc(summary)}</span></h2><div class="meta">baseline: ${base}</div>${changeRows('Regressions: pass → fail', c.regressions, 'bad')}${
    restHtml ? `<details id="more-changes"><summary>fixes, newly skipped, other changes, drift and request counts</summary>${restHtml}</details>` : ''
  }</section>`;
}

const CSS = `
*{box-sizing:border-box}body{font:14px/1.4 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;color:#1b1f24;background:#f6f8fa}
header{padding:12px 20px;background:#fff;border-bottom:1px solid #d0d7de;display:flex;flex-wrap:wrap;gap:6px 18px;align-items:baseline}
h1{font-size:20px;margin:0}h2{font-size:16px;margin:14px 0 6px}h3{font-size:14px;margin:6px 0 2px}
main{padding:0 20px 40px}section{margin-top:10px}.meta{color:#57606a}
.verdict{font-weight:700;padding:2px 10px;border-radius:4px;color:#fff}.verdict.pass{background:#1a7f37}.verdict.fail{background:#cf222e}
.cards{display:flex;flex-wrap:wrap;gap:8px;margin-top:12px}.card{background:#fff;border:1px solid #d0d7de;border-radius:6px;padding:4px 10px;min-width:80px}
.card b{display:block;font-size:18px}.tests{margin-top:4px}.card.click{cursor:pointer}.card.click:hover{border-color:#0969da}
.badge{display:inline-block;padding:0 7px;border-radius:10px;font-size:12px;font-weight:600;white-space:nowrap}
.v-pass{background:#dafbe1;color:#116329}.v-fail{background:#ffebe9;color:#a40e26}.v-error{background:#fff1e5;color:#953800}
.v-skip{background:#eaeef2;color:#424a53}.v-not-covered{background:#fbefff;color:#6e40c9}.v-not-testable{background:#f6f8fa;color:#6e7781;border:1px solid #d0d7de}
table{border-collapse:collapse;width:100%;background:#fff}th,td{border-bottom:1px solid #eaeef2;padding:4px 8px;text-align:left;vertical-align:top}
th{background:#f6f8fa;font-weight:600}td.n{text-align:right}table.small{width:auto}
tr.section-row th{background:#ddf4ff;font-size:14px}
#failing td.why{color:#a40e26}#failing tr.error td.why{color:#953800}
.filters{display:flex;flex-wrap:wrap;gap:10px;align-items:center;background:#fff;border:1px solid #d0d7de;border-radius:6px;padding:6px 10px;position:sticky;top:0;z-index:2}
.filters label{cursor:pointer;user-select:none}.filters input[type=search]{padding:3px 6px;min-width:220px}
button{font:inherit;padding:2px 10px;border:1px solid #d0d7de;border-radius:6px;background:#f6f8fa;cursor:pointer}
code{font:12px ui-monospace,SFMono-Regular,Menlo,monospace}pre{font:12px/1.35 ui-monospace,SFMono-Regular,Menlo,monospace;background:#f6f8fa;border:1px solid #eaeef2;padding:6px;white-space:pre-wrap;word-break:break-word;margin:4px 0;max-height:420px;overflow:auto}
details summary{cursor:pointer;color:#0969da}.ev{border-left:3px solid #cf222e;padding-left:8px;margin:6px 0}table.ea{margin:4px 0}table.ea th{text-align:left;color:#57606a;padding-right:8px;vertical-align:top}.evt{font-weight:600}.file{color:#57606a;font-weight:400}
.xh{font-size:12px;color:#57606a;margin-top:4px}.reason{color:#57606a;font-size:12px}.lvl{font-size:12px;color:#57606a}
.chg{background:#fff;border:1px solid #d0d7de;border-radius:6px;padding:2px 12px;margin:6px 0}.chg.bad{border-left:4px solid #cf222e}.chg.good{border-left:4px solid #1a7f37}.chg.meh{border-left:4px solid #8c959f}
.chg ul{margin:4px 0;padding-left:18px}.amb{color:#57606a;font-size:12px}a{color:#0969da}
`;

const JS = `
(function(){
  var rows=[].slice.call(document.querySelectorAll('tr.clause'));
  var boxes=[].slice.call(document.querySelectorAll('input[data-filter]'));
  var search=document.getElementById('q');
  var shown=document.getElementById('shown');
  function apply(){
    var on={};boxes.forEach(function(b){if(b.checked)on[b.value]=1;});
    var q=(search.value||'').toLowerCase();var n=0;
    rows.forEach(function(r){var ok=!!on[r.getAttribute('data-status')]&&(!q||r.textContent.toLowerCase().indexOf(q)>=0);r.hidden=!ok;if(ok)n++;});
    [].forEach.call(document.querySelectorAll('tbody.sec'),function(tb){tb.querySelector('tr.section-row').hidden=!tb.querySelector('tr.clause:not([hidden])');});
    shown.textContent=n+' of '+rows.length+' clauses shown';
  }
  function only(list){boxes.forEach(function(b){b.checked=list===null||list.indexOf(b.value)>=0;});apply();}
  boxes.forEach(function(b){b.addEventListener('change',apply);});
  search.addEventListener('input',apply);
  document.getElementById('all').addEventListener('click',function(){only(null);});
  document.getElementById('problems').addEventListener('click',function(){only(['fail','error','not-covered']);});
  [].forEach.call(document.querySelectorAll('[data-only]'),function(c){c.addEventListener('click',function(){only([c.getAttribute('data-only')]);document.getElementById('clauses').scrollIntoView();});});
  [].forEach.call(document.querySelectorAll('a[href^="#c-"]'),function(a){a.addEventListener('click',function(){var r=document.getElementById(a.getAttribute('href').slice(1));if(r){if(r.hidden)only(null);var d=r.querySelector('details');if(d)d.open=true;}});});
  apply();
})();
`;

/** `html` linked to the spec heading of `section` when a spec URL is configured, else plain. */
function specAnchor(run: RunRecord, section: string, html: string, specHref: string | undefined): string {
  const href = sectionLink(run, section, specHref);
  return href ? `<a href="${esc(href)}">${html}</a>` : html;
}

/** A run that checked nothing (no test, or an unreachable target) proves nothing: never PASS. */
function runPasses(run: RunRecord): boolean {
  const s = run.summary;
  const cs = run.clauseSummary;
  return s.total > 0 && !run.unreachable && s.failed === 0 && s.errors === 0 && cs.fail === 0 && cs.error === 0;
}

/** One card per clause verdict (a click shows only that verdict) and the coverage card. */
function cardsHtml(run: RunRecord, clauses: ClauseRecord[]): string {
  const cs = run.clauseSummary;
  const testable = clauses.filter((c) => c.targets.length > 0);
  const covered = testable.filter((c) => c.tests.length > 0).length;
  return [
    ...CLAUSE_VERDICTS.map((v) => `<div class="card click" data-only="${v}" title="show only ${esc(LABEL[v])}"><b>${cs[v]}</b>${badge(v)}</div>`),
    `<div class="card"><b>${(cs.coverage * 100).toFixed(1)}%</b>coverage <span class="meta">(${covered}/${testable.length} testable clauses have a test)</span></div>`,
  ].join('');
}

/** What the run left off: the share of must clauses checked and the switches that would check more. */
function offHtml(run: RunRecord): string {
  const off = run.off;
  if (!off) return '';
  const switches = off.switches.length
    ? `<table class="small"><tr><th>left off</th><th>how to turn it on</th><th><code>must</code> clauses it would turn on</th><th>skipped tests</th></tr>${off.switches
        .map(
          (w) =>
            `<tr><td>${esc(w.label)}</td><td>${w.variable ? `<code>${esc(w.variable)}</code>` : esc(w.howTo)}</td><td class="n" title="${esc(w.mustClauses.join(' '))}">${w.mustClauses.length}</td><td class="n">${w.tests ?? ''}</td></tr>`,
        )
        .join('')}</table>`
    : '';
  const control = off.switches.find((w) => w.reasons?.length)?.reasons ?? [];
  const ceiling = control.length
    ? `<details><summary><code>must</code> clauses that still need a simulator control API (${control.length}), and why</summary><ul class="small">${control
        .map((r) => `<li><code>${esc(r.id)}</code>: ${esc(r.reason)}</li>`)
        .join('')}</ul></details>`
    : '';
  return `<section id="off"><div><strong>Checked ${off.mustChecked} of ${off.mustTestable} testable <code>must</code> clauses (${off.mustTestable ? Math.round((off.mustChecked / off.mustTestable) * 100) : 100}%).</strong></div>${switches}${ceiling}</section>`;
}

/** The failing (and error) clauses, each linked to its row in the clause table. */
function failingHtml(failing: ClauseRecord[]): string {
  if (!failing.length) return `<section id="failing"><h2>No clause fails</h2></section>`;
  return `<section id="failing"><h2>Failing clauses (${failing.length})</h2><table><tr><th>clause</th><th>level</th><th>verdict</th><th>statement</th><th>why</th></tr>${failing
    .map(
      (c) =>
        `<tr class="${c.verdict}"><td><a href="#c-${esc(c.id)}"><code>${esc(c.id)}</code></a></td><td>${esc(c.level)}</td><td>${badge(c.verdict)}</td><td>${esc(c.text)}</td><td class="why">${esc(whyLine(c.message, 220))}</td></tr>`,
    )
    .join('')}</table></section>`;
}

/** Under a clause's statement: its evidence when it failed, else why it was skipped, not testable or not covered. */
function clauseDetailHtml(run: RunRecord, c: ClauseRecord): string {
  if (c.verdict === 'fail' || c.verdict === 'error')
    return `<details><summary>${esc(whyLine(c.message, 160) || 'evidence')}</summary>${evidenceHtml(run, c)}</details>`;
  if (c.verdict === 'skip') return `<div class="reason">skipped (${esc(c.skipKind ?? 'other')}): ${esc(firstLine(c.message, 200))}</div>`;
  if (c.verdict === 'not-testable') return `<div class="reason">not testable: ${esc(c.reason ?? '')}</div>`;
  if (c.verdict === 'not-covered') return `<div class="reason">no test names this clause</div>`;
  return '';
}

/** One row of the clause table. */
function clauseRowHtml(run: RunRecord, c: ClauseRecord, specHref: string | undefined): string {
  const amb = c.ambiguity ? `<div class="amb">ambiguity: ${esc(c.ambiguity)}</div>` : '';
  const tests = c.tests.length ? `<details><summary>${c.tests.length}</summary><ul>${c.tests.map((t) => `<li>${esc(t)}</li>`).join('')}</ul></details>` : '0';
  return `<tr class="clause" id="c-${esc(c.id)}" data-status="${c.verdict}"><td>${specAnchor(run, c.section, `<code>${esc(c.id)}</code>`, specHref)}</td><td>§${esc(c.section)}</td><td>${esc(c.level)}</td><td>${badge(c.verdict)}</td><td>${esc(c.text)}${amb}${clauseDetailHtml(run, c)}</td><td>${tests}</td></tr>`;
}

/** The clause table's bodies: one per top-level spec section, headed by its verdict counts. */
function sectionBodiesHtml(run: RunRecord, clauses: ClauseRecord[], specHref: string | undefined): string {
  const groups = new Map<string, ClauseRecord[]>();
  for (const c of clauses) {
    const top = topOf(c.section);
    groups.set(top, [...(groups.get(top) ?? []), c]);
  }
  return [...groups.entries()]
    .sort((a, b) => a[0].localeCompare(b[0], 'en', { numeric: true }))
    .map(([top, list]) => {
      const counts = CLAUSE_VERDICTS.filter((v) => list.some((c) => c.verdict === v))
        .map((v) => `${list.filter((c) => c.verdict === v).length} ${LABEL[v]}`)
        .join(', ');
      const head = `<tr class="section-row"><th colspan="6">${specAnchor(run, top, `§${esc(top)} ${esc(run.sections?.[top] ?? '')}`, specHref)} <span class="meta">${esc(counts)}</span></th></tr>`;
      const rows = list.map((c) => clauseRowHtml(run, c, specHref)).join('');
      return `<tbody class="sec" data-section="${esc(top)}">${head}${rows}</tbody>`;
    })
    .join('');
}

/** The clause table's filters: a box per verdict, problems only, all, and a search field. */
function filtersHtml(run: RunRecord): string {
  const cs = run.clauseSummary;
  return `<div class="filters">${CLAUSE_VERDICTS.map(
    (v) => `<label><input type="checkbox" data-filter value="${v}" checked> ${badge(v)} ${cs[v]}</label>`,
  ).join(
    '',
  )}<button id="problems" type="button">problems only</button><button id="all" type="button">all</button><input id="q" type="search" placeholder="search id, text, reason"><span id="shown" class="meta"></span></div>`;
}

/** Requests per suite file and their total. */
function requestsHtml(run: RunRecord): string {
  const perFile = Object.entries(run.requests.perFile)
    .sort()
    .map(([f, n]) => `<tr><td>${esc(f)}</td><td class="n">${n}</td></tr>`)
    .join('');
  return `<section><h2>Requests per suite file</h2><table class="small"><tr><th>suite file</th><th>requests</th></tr>${perFile}<tr><th>total</th><th class="n">${run.requests.total}</th></tr></table></section>`;
}

/** Where the run's wall time went (helpers/report/timing.ts {@link timingSummary}); a record before format 1.18: nothing. */
function timingHtml(run: RunRecord): string {
  const t = timingSummary(run);
  if (!t) return '';
  const rows = t.longest
    .map(
      (r) =>
        `<tr><td>${esc(r.file)}</td><td class="n">${r.requests}</td><td class="n">${r.chain}</td><td class="n">${seconds(r.chainMs)}</td><td class="n">${r.inFlight}</td><td>${r.span}</td></tr>`,
    )
    .join('');
  return `<section id="timing"><h2>Where the time went</h2>${timingSentences(run, t)
    .map((line) => `<p>${esc(line)}</p>`)
    .join(
      '',
    )}<table class="small"><tr><th>suite file</th><th>requests</th><th>longest chain one after another</th><th>× median answer</th><th>most in flight</th><th>requests from – to</th></tr>${rows}</table></section>`;
}

/** Drift: what the target answered that the spec does not document (none: nothing). */
function driftHtml(run: RunRecord): string {
  return run.drift.length
    ? `<section><h2>Drift (informational, §9.4)</h2><table><tr><th>kind</th><th>where</th><th>what</th><th>tests</th></tr>${run.drift.map((d) => `<tr><td>${esc(d.kind)}</td><td>${esc(d.where)}</td><td><code>${esc(d.what)}</code></td><td class="n">${d.tests.length}</td></tr>`).join('')}</table></section>`
    : '';
}

/** The page header: verdict, target and time, links to the other reports; an unreachable target under it. */
function headerHtml(run: RunRecord, opts: HtmlOptions): string {
  const ok = runPasses(run);
  const links = [
    `<a href="conformance.md">Markdown</a>`,
    `<a href="conformance.json">JSON</a>`,
    opts.authorizationMatrix ? `<a href="${esc(opts.authorizationMatrix)}">authorization matrix</a>` : '',
  ].filter(Boolean);
  const where = `${esc(run.target.mode)} ${esc(run.target.baseUrl)} · ${esc(run.startedAt)} → ${esc(run.finishedAt)}${run.shard ? ` · shard ${run.shard.index}/${run.shard.count}` : ''}${run.merged ? ` · merged from ${run.merged.sources.length} shard records` : ''}`;
  return `<header><h1>Core API conformance <span class="verdict ${ok ? 'pass' : 'fail'}">${ok ? 'PASS' : 'FAIL'}</span>${run.partial ? ' <span class="meta">(partial run)</span>' : ''}</h1><span class="meta">${where}</span><span>${links.join(' · ')}</span></header>${run.unreachable ? `<p class="unreachable"><b>${esc(outageHeading(run.unreachable))}, no test ran</b>: ${esc(run.unreachable.cause)}. Fix: ${esc(run.unreachable.fix)}.</p>` : ''}`;
}

/** Renders the HTML report from a run record alone. */
export function renderHtml(run: RunRecord, opts: HtmlOptions = {}): string {
  const s = run.summary;
  const clauses = [...run.clauses].sort(byClauseId);
  const failing = clauses.filter((c) => c.verdict === 'fail' || c.verdict === 'error');
  const title = `Core API conformance: ${runPasses(run) ? 'PASS' : 'FAIL'}`;
  const testLine = `tests: ${s.total} (${s.passed} passed, ${s.failed} failed, ${s.errors} errors, ${s.skipped} skipped) · requests: ${run.requests.total} (${run.requests.retries} retries)`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:">
<title>${esc(title)}</title><style>${CSS}</style></head>
<body>${headerHtml(run, opts)}
<main>
${run.partial ? `<p class="partial"><strong>Partial run</strong>: ${esc(run.partial.reasons.join('; '))}. Clauses whose tests did not run read "not run", not "not covered".</p>` : ''}<div class="cards">${cardsHtml(run, clauses)}</div><div class="meta tests">${esc(testLine)}</div>
${offHtml(run)}
${run.comparison ? comparisonHtml(run.comparison) : ''}
${failingHtml(failing)}
<section id="clauses"><h2>Clauses by spec section</h2>${filtersHtml(run)}
<table id="clause-table"><thead><tr><th>clause</th><th>section</th><th>level</th><th>verdict</th><th>statement · evidence</th><th>tests</th></tr></thead>${sectionBodiesHtml(run, clauses, opts.specHref)}</table></section>
${requestsHtml(run)}
${timingHtml(run)}
${driftHtml(run)}
</main><script>${JS}</script></body></html>
`;
}
