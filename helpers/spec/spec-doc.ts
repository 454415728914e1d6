/**
 * Reads the spec document (`core-api.md`, an input found at {@link SPEC_PATH}) into numbered sections and statements:
 * table rows, list items and paragraph sentences. Serves the clause catalogue check (every section
 * has a clause), section titles and links in the reports, and the spec diff.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readEnv } from '../base/env';

/**
 * Where the spec document is read: `CORE_API_SPEC` (also set by `npm run conformance -- --spec
 * <file>`), else `shared/spec/core-api.md` in the folder that holds the checkout (CI's layout).
 */
export const SPEC_PATH = readEnv('CORE_API_SPEC') ?? join(process.cwd(), '..', 'shared', 'spec', 'core-api.md');

/** The one line printed (or used as a skip reason) where something needs the spec and it is absent. */
export const SPEC_NEEDED = `needs the spec document, not found at ${SPEC_PATH}: set CORE_API_SPEC=<path of core-api.md> (docs/targets.md, "The spec document")`;

/** One statement of the spec: a table row, a list item, or one sentence of a paragraph. */
export interface SpecStatement {
  /** Number of the enclosing numbered heading, e.g. `2.3`, `5`. */
  section: string;
  /**
   * Finer address: `<section>.<n>` for numbered list item n of a section without subsections
   * (`5.6` for item 6 of §5, and the table that follows it), else the section number.
   */
  address: string;
  /** Unnumbered sub-heading it sits under (e.g. `Model A: shared-secret header`), if any. */
  subheading?: string;
  kind: 'row' | 'item' | 'sentence';
  /** Stable key for pairing old and new versions (row: first cell; numbered item: its number). */
  key?: string;
  /** Text with whitespace collapsed (rows: cells joined with ` | `). */
  text: string;
}

/** One numbered heading of the spec and its statements. */
export interface SpecSection {
  /** `1`, `2.1`, `4.5`, … */
  number: string;
  title: string;
  /** GitHub-style anchor of the heading (`5-authentication`). */
  anchor: string;
  /** Heading depth (2 for `##`, 3 for `###`). */
  depth: number;
  /** true when no numbered heading sits below it (the sections clauses are counted on). */
  leaf: boolean;
  statements: SpecStatement[];
}

/** The parsed spec. */
export interface SpecDoc {
  title: string;
  sections: SpecSection[];
}

/** GitHub-style heading anchor: lower case, punctuation dropped, spaces to hyphens. */
export function headingAnchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function cells(line: string): string[] {
  return line
    .trim()
    .replace(/^\|/, '')
    .replace(/\|$/, '')
    .split('|')
    .map((c) => c.trim());
}

function sentences(paragraph: string): string[] {
  return paragraph
    .split(/(?<=[.!?])\s+(?=[A-Z`(])/)
    .map((s) => s.trim())
    .filter(Boolean);
}

/**
 * Reads spec Markdown line by line: the heading, sub-heading and numbered list item in force, and the
 * table, paragraph or list item being gathered, which becomes statements when it ends.
 */
class SpecParser {
  title = '';
  readonly sections: SpecSection[] = [];
  private cur: SpecSection | undefined;
  private subheading: string | undefined;
  /** Number of the last numbered list item (sections without subsections). */
  private item: string | undefined;
  private table: { header?: string[]; rows: string[][] } | undefined;
  private paragraph: string[] = [];
  private pendingItem: { text: string; key?: string } | undefined;

  private push(s: Omit<SpecStatement, 'section' | 'address' | 'subheading'>): void {
    const { cur, item, subheading } = this;
    if (!cur) return;
    const address = item && !cur.number.includes('.') && !subheading ? `${cur.number}.${item}` : cur.number;
    cur.statements.push({ section: cur.number, address, ...(subheading ? { subheading } : {}), ...s });
  }

  private flushParagraph(): void {
    if (this.paragraph.length) {
      for (const s of sentences(this.paragraph.join(' '))) this.push({ kind: 'sentence', text: s });
      this.paragraph = [];
    }
  }

  private flushItem(): void {
    if (this.pendingItem) this.push({ kind: 'item', ...this.pendingItem });
    this.pendingItem = undefined;
  }

  private flushTable(): void {
    const table = this.table;
    if (!table) return;
    const firstCells = table.rows.map((r) => r[0]);
    for (const r of table.rows) {
      const dup = firstCells.filter((c) => c === r[0]).length > 1;
      this.push({
        kind: 'row',
        key: `${this.subheading ?? ''}|${(table.header ?? []).join('/')}|${dup ? `${r[0]} ${r[1] ?? ''}` : r[0]}`,
        text: r.join(' | '),
      });
    }
    this.table = undefined;
  }

  /** Ends whatever is being gathered. */
  flushAll(): void {
    this.flushItem();
    this.flushTable();
    this.flushParagraph();
  }

  /** A heading: the title (`#`), a numbered section, or an unnumbered sub-heading. */
  private heading(depth: number, text: string): void {
    this.flushAll();
    const num = /^(\d+(?:\.\d+)*)\.?\s+(.*)$/.exec(text);
    if (depth === 1) this.title = text;
    else if (num) {
      this.cur = { number: num[1], title: num[2].trim(), anchor: headingAnchor(text), depth, leaf: true, statements: [] };
      this.sections.push(this.cur);
      this.subheading = undefined;
      this.item = undefined;
    } else {
      this.subheading = text;
      this.item = undefined;
    }
  }

  /** A table line: its header, a separator (skipped), or a row. */
  private tableLine(line: string): void {
    this.flushItem();
    this.flushParagraph();
    const c = cells(line);
    if (c.every((x) => /^:?-{3,}:?$/.test(x))) return; // separator row
    if (!this.table) this.table = { header: c, rows: [] };
    else this.table.rows.push(c);
  }

  /** A top-level list item, numbered (`3.`) or not (`-`, `*`). */
  private listItem(number: string | undefined, text: string): void {
    this.flushItem();
    this.flushParagraph();
    if (number) this.item = number;
    this.pendingItem = { text: text.trim(), ...(number ? { key: `${this.subheading ?? ''}|item ${number}` } : {}) };
  }

  /** Reads one line of the document. */
  line(raw: string): void {
    const line = raw.replace(/\s+$/, '');
    const h = /^(#{1,6})\s+(.*)$/.exec(line);
    if (h) return this.heading(h[1].length, h[2].trim());
    if (/^\s*\|/.test(line)) return this.tableLine(line);
    this.flushTable();
    const li = /^(\s*)(?:(\d+)\.|[-*])\s+(.*)$/.exec(line);
    if (li && li[1].length === 0) return this.listItem(li[2], li[3]);
    if (line.trim() === '') {
      this.flushItem();
      this.flushParagraph();
      return;
    }
    if (this.pendingItem) {
      this.pendingItem.text += ` ${line.trim()}`;
      return;
    }
    if (this.paragraph.length === 0) this.item = undefined; // a paragraph ends the list it follows
    this.paragraph.push(line.trim());
  }
}

/** Parses spec Markdown into numbered sections and statements. */
export function parseSpec(md: string): SpecDoc {
  const parser = new SpecParser();
  for (const raw of md.replace(/\r\n/g, '\n').split('\n')) parser.line(raw);
  parser.flushAll();
  const { title, sections } = parser;
  for (const s of sections) s.leaf = !sections.some((o) => o.number.startsWith(`${s.number}.`));
  for (const s of sections) for (const st of s.statements) st.text = st.text.replace(/\s+/g, ' ').trim();
  return { title, sections };
}

/** Reads and parses the spec at `path` (default {@link SPEC_PATH}); undefined when the file is absent. */
export function readSpec(path: string = SPEC_PATH): SpecDoc | undefined {
  if (!existsSync(path)) return undefined;
  return parseSpec(readFileSync(path, 'utf8'));
}

/** Whether a clause section (`5.6`) lies within a spec section (`5`): equal, or a dotted descendant. */
export function withinSection(clauseSection: string, section: string): boolean {
  return clauseSection === section || clauseSection.startsWith(`${section}.`);
}

/** Section titles by number (`{ "5": "Authentication", "2.3": "serverUrl rules" }`). */
export function sectionTitles(doc: SpecDoc | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const s of doc?.sections ?? []) out[s.number] = s.title;
  return out;
}
