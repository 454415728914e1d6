/**
 * One clause table across runs (in the manner of wpt.fyi / Bowtie): one row per clause,
 * one column per run record (named by target and start time), the verdict in each cell. Rows
 * where the runs disagree come first. Used by `npm run compare-targets`.
 */
import type { RunRecord } from './model';

/** The table: `columns[i]` names run i; `rows[].verdicts[i]` is its verdict (`absent` if missing). */
export interface TargetTable {
  columns: string[];
  rows: { id: string; section: string; text: string; verdicts: string[]; disagree: boolean }[];
}

/** Column name of a run: `<mode> <baseUrl host> <startedAt>`. */
export function columnName(run: RunRecord): string {
  let host = run.target.baseUrl;
  try {
    host = new URL(run.target.baseUrl).host;
  } catch {
    /* keep as given */
  }
  return `${run.target.mode} ${host} ${run.startedAt}`;
}

/** Builds the table from two or more run records; disagreeing rows first, then by clause id. */
export function compareTargets(runs: RunRecord[]): TargetTable {
  const ids = new Map<string, { section: string; text: string }>();
  for (const r of runs) for (const c of r.clauses) if (!ids.has(c.id)) ids.set(c.id, { section: c.section, text: c.text });
  const maps = runs.map((r) => new Map(r.clauses.map((c) => [c.id, c.verdict as string])));
  const rows = [...ids].map(([id, c]) => {
    const verdicts = maps.map((m) => m.get(id) ?? 'absent');
    return { id, ...c, verdicts, disagree: new Set(verdicts).size > 1 };
  });
  rows.sort((a, b) => Number(b.disagree) - Number(a.disagree) || a.id.localeCompare(b.id, 'en', { numeric: true }));
  return { columns: runs.map(columnName), rows };
}

const md = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Markdown table (string); disagreeing rows are marked with `≠`. */
export function renderTargetsMarkdown(t: TargetTable): string {
  const n = t.rows.filter((r) => r.disagree).length;
  return [
    `# Clause verdicts across ${t.columns.length} runs`,
    '',
    `${n} of ${t.rows.length} clauses disagree (listed first).`,
    '',
    `| | clause | ${t.columns.map(md).join(' | ')} |`,
    `|---|---|${t.columns.map(() => '---').join('|')}|`,
    ...t.rows.map((r) => `| ${r.disagree ? '≠' : ''} | \`${r.id}\` | ${r.verdicts.join(' | ')} |`),
    '',
  ].join('\n');
}

/** Self-contained HTML table (string, inline CSS, no script). */
export function renderTargetsHtml(t: TargetTable): string {
  const rows = t.rows
    .map(
      (r) =>
        `<tr class="${r.disagree ? 'disagree' : ''}" data-id="${esc(r.id)}"><td>${r.disagree ? '≠' : ''}</td><td><code>${esc(r.id)}</code><br><small>${esc(r.text)}</small></td>${r.verdicts
          .map((v) => `<td class="v-${esc(v)}">${esc(v)}</td>`)
          .join('')}</tr>`,
    )
    .join('\n');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Clause verdicts across runs</title><style>
body{font-family:system-ui,sans-serif;margin:1rem}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.2rem .4rem;vertical-align:top}
.v-pass{background:#e6f4ea}.v-fail{background:#fde2e1}.v-error{background:#fbe3c9}.v-skip,.v-absent{background:#eee}.v-not-covered{background:#fff6bf}tr.disagree td:first-child{color:#c00;font-weight:bold}
</style></head><body><h1>Clause verdicts across ${t.columns.length} runs</h1>
<p>${t.rows.filter((r) => r.disagree).length} of ${t.rows.length} clauses disagree (listed first).</p>
<table><thead><tr><th></th><th>clause</th>${t.columns.map((c) => `<th>${esc(c)}</th>`).join('')}</tr></thead><tbody>
${rows}
</tbody></table></body></html>
`;
}
