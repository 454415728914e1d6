/**
 * The rules of the request-field oracle (helpers/generate/oracle.ts), one constructor per kind of
 * field the spec states: text, "integer or integer string", boolean, enumeration, uuid, lists,
 * E.164, zone name, serverUrl (§2.3), §2.6 language, free-form and typed objects. Each answers a
 * {@link Judge}: given any JSON value, whether the spec makes the target accept it, refuse it, or
 * leaves it open, and what a later read must show once it was accepted. Where the spec is open the
 * verdict is `either` and the read, when one is stated, still binds an accepted value.
 * Pure functions, no I/O.
 */
import ipaddr from 'ipaddr.js';
import type { ClearedReading, Reading } from './paths';

/** What the spec makes of a value: `accept` (2xx), `refuse` (4xx, see {@link Judgement.refusal}) or `either` (open). */
export type Verdict = 'accept' | 'refuse' | 'either';

/** The answer a refused value gets: 400 VALIDATION_ERROR (§4.1, §7) unless a row states another. */
export interface Refusal {
  status: number;
  code: string;
  /** True where the spec states no status for the refusal (an id naming nothing, §2.2 reference-existence): any 4xx. */
  any4xx?: boolean;
}

/** The refusal of an id that may name nothing: its status is not stated (§2.2), so any 4xx (400 VALIDATION_ERROR, 404 RESOURCE_NOT_FOUND). */
export const REFERENCE_REFUSAL: Refusal = { status: 400, code: 'VALIDATION_ERROR', any4xx: true };

/** The default refusal of a body field (§4.1, §7: "body or query parameter failed validation"). */
export const VALIDATION_ERROR: Refusal = { status: 400, code: 'VALIDATION_ERROR' };

/** The oracle's word on one value of one field. */
export interface Judgement {
  verdict: Verdict;
  /** What a later read shows at the row's `shownAt` once the value was accepted; undefined: not shown, not judged. */
  reads?: Reading;
  /** Clause ids of the rule applied (spec/clauses/). */
  clauses: string[];
  /** The rule in words, e.g. `integer string within 0 to 60 (§2.2)`. */
  rule: string;
  /** For `refuse` (and a refused `either`): the answer the spec fixes; default {@link VALIDATION_ERROR}. */
  refusal?: Refusal;
}

/** What the run knows of the world a value is judged in: the addresses a host name resolves to. */
export interface OracleContext {
  /** Addresses `host` resolves to ([] when it does not resolve); undefined when the run did not arrange the name. */
  resolve?: (host: string) => readonly string[] | undefined;
}

/** Judges one value (any JSON value; `undefined` is never passed: an omitted field is not a value). */
export type Judge = (value: unknown, ctx: OracleContext) => Judgement;

/**
 * The kinds of judgement a row cites clauses for (the case kinds of schemas/README.md `x-clause`):
 * `type` (another JSON type), `null`, `bound`, `integer-string`, `enum`, `enum-case`, `length`,
 * `format`, `example`, `unknown-key`, `required`, and `reads` (what a later read shows).
 */
export type CiteKind =
  'type' | 'null' | 'bound' | 'integer-string' | 'enum' | 'enum-case' | 'length' | 'format' | 'example' | 'unknown-key' | 'required' | 'reads';

/** The clause ids a row cites for a kind of judgement. */
export type Cite = (kind: CiteKind) => string[];

/** How null is judged on a field: refused, open, or accepted and read back as one of `reads`. */
export type NullRule = 'refuse' | 'either' | { reads: ClearedReading[] };

/** The clause of "an accepted value reads back exactly as written" (§4.1). */
export const READS_BACK = '4.1/value-reads-back-exactly';

function j(verdict: Verdict, clauses: string[], rule: string, reads?: Reading, refusal?: Refusal): Judgement {
  return { verdict, clauses: [...new Set(clauses)], rule, ...(reads ? { reads } : {}), ...(refusal ? { refusal } : {}) };
}

/** The JSON type of a value, in the words of the spec: `null`, `boolean`, `number`, `string`, `array`, `object`. */
export function jsonType(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v;
}

/** Judges null by `rule` (the field's stated types and `x-null`/`x-null-reads`). */
export function judgeNull(rule: NullRule, cite: Cite, field: string): Judgement {
  if (rule === 'refuse') return j('refuse', cite('null'), `${field}: null is outside its stated types`);
  if (rule === 'either') return j('either', cite('null'), `${field}: null is not stated (request type omits it, response type admits it)`);
  return j('accept', cite('null'), `${field}: null clears`, { kind: 'cleared', readings: rule.reads });
}

/** Lengths of a text: UTF-16 code units and Unicode code points (the readings of "characters", §8). */
export function textLengths(s: string): { units: number; points: number } {
  return { units: s.length, points: [...s].length };
}

/** True when `s` is well-formed Unicode (no lone surrogate): only such text is a string every JSON reader keeps. */
export function wellFormed(s: string): boolean {
  return !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(s);
}

/** Options of {@link textRule}. */
export interface TextOptions {
  /** Most characters (§8), both readings; undefined: no stated limit. */
  max?: number;
  /** Fewest characters (1: "non-empty", §4.4); undefined: none stated. */
  min?: number;
  null: NullRule;
  /** What an accepted `''` reads as: `'unjudged'` where the spec gives it a meaning of its own ('' restores, §2.2). */
  empty?: 'either' | 'accept-unjudged';
  /** The clause that gives `''` its meaning (with `empty: 'accept-unjudged'`). */
  emptyClause?: string;
  /** False where the spec states no read-back (an answer that is not shown): accepted values are not read. */
  readsBack?: boolean;
  /** False where the spec names the field's type without a rule that refuses another (§2.9): another type is open. */
  typeStated?: boolean;
}

/** Longest text a field without a stated limit must take: longer is `either` (a store may cap what the spec does not). */
export const UNSTATED_TEXT_LIMIT = 2000;

/**
 * A text field: a string within its length is accepted and reads back exactly (§4.1); beyond the
 * limit under both readings of "character" it is refused (§8), between them open; ill-formed
 * Unicode, NUL and, without a stated limit, very long or empty texts are open; leading or trailing
 * blanks may be kept or trimmed.
 */
export function textRule(field: string, cite: Cite, o: TextOptions): Judge {
  return (v) => {
    if (v === null) return judgeNull(o.null, cite, field);
    if (typeof v !== 'string') return j(o.typeStated === false ? 'either' : 'refuse', cite('type'), `${field}: a string is stated, ${jsonType(v)} sent`);
    const { units, points } = textLengths(v);
    if (o.max !== undefined && units > o.max && points > o.max) return j('refuse', cite('length'), `${field}: more than ${o.max} characters`);
    if (o.min !== undefined && units < o.min) return j('refuse', cite('length'), `${field}: fewer than ${o.min} characters`);
    const exact: Reading | undefined = o.readsBack === false ? undefined : { kind: 'equals', value: v };
    const cites = [...cite('reads'), ...(o.readsBack === false ? [] : [READS_BACK])];
    if (o.max !== undefined && Math.max(units, points) > o.max)
      return j('either', cite('length'), `${field}: ${o.max} characters under one reading only`, exact);
    if (!wellFormed(v)) return j('either', cites, `${field}: ill-formed Unicode (a lone surrogate) is not stated`);
    if (v.includes('\u0000')) return j('either', cites, `${field}: NUL in a text is not stated (a store may refuse it)`);
    if (hasControlCharacter(v)) {
      return j('either', cites, `${field}: control characters and noncharacters in a text are not stated (a store may refuse them)`, exact);
    }
    if (v === '')
      return o.empty === 'accept-unjudged'
        ? j('accept', [o.emptyClause ?? cite('example')[0]], `${field}: '' is stated`)
        : j('either', cites, `${field}: '' is not stated`);
    if (o.max === undefined && units > UNSTATED_TEXT_LIMIT) return j('either', cites, `${field}: no limit stated, and a store may cap it`, exact);
    if (v.trim() === '') return j('either', cites, `${field}: a text of blanks only is not stated`, trimmedOr(v, exact));
    if (v.trim() !== v) return j('accept', cites, `${field}: a string`, trimmedOr(v, exact));
    return j('accept', cites, `${field}: a string`, exact);
  };
}

/** True when `s` holds a C0 control other than tab, line feed and carriage return, a C1 control or DEL, or the noncharacters U+FFFE and U+FFFF. */
function hasControlCharacter(s: string): boolean {
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    if ((cp < 0x20 && cp !== 0x09 && cp !== 0x0a && cp !== 0x0d) || (cp >= 0x7f && cp <= 0x9f) || cp === 0xfffe || cp === 0xffff) return true;
  }
  return false;
}

function trimmedOr(v: string, exact: Reading | undefined): Reading | undefined {
  return exact && { kind: 'anyOf', readings: [exact, { kind: 'equals', value: v.trim() }] };
}

/** Zeros of the Unicode decimal-digit runs (General Category Nd) the generators draw from; a digit is its offset from its run's zero. */
export const DIGIT_ZEROS: readonly number[] = [
  0x30, 0x660, 0x6f0, 0x7c0, 0x966, 0x9e6, 0xa66, 0xae6, 0xb66, 0xbe6, 0xc66, 0xce6, 0xd66, 0xde6, 0xe50, 0xed0, 0xf20, 0x1040, 0x1090, 0x17e0, 0x1810, 0x1946,
  0x19d0, 0x1a80, 0x1a90, 0x1b50, 0x1bb0, 0x1c40, 0x1c50, 0xa620, 0xa8d0, 0xa900, 0xa9d0, 0xa9f0, 0xaa50, 0xabf0, 0xff10, 0x104a0, 0x11066, 0x1d7ce, 0x1d7d8,
  0x1d7e2, 0x1d7ec, 0x1d7f6,
];

/** The ASCII digit a decimal digit of any script stands for, or undefined when `ch` is none the table knows. */
export function asciiDigit(ch: string): string | undefined {
  const cp = ch.codePointAt(0)!;
  const zero = DIGIT_ZEROS.find((z) => cp >= z && cp < z + 10);
  return zero === undefined ? undefined : String(cp - zero);
}

/**
 * How a string reads as an integer: `canonical` (ASCII digits, an optional `-`, no leading zero:
 * the one form every reader takes), `variant` (a form some careful readers take: blanks around,
 * `+`, leading zeros, `-0`, digits of another script, `_` between digits, `30.0`, `3e1`, `0x1e`)
 * with the number it stands for, or `none` (no reading makes it an integer).
 */
export function readIntegerString(s: string): { form: 'canonical' | 'variant'; value: number } | { form: 'none' } {
  if (/^(0|-?[1-9][0-9]*)$/.test(s)) return { form: 'canonical', value: Number(s) };
  let t = s.trim();
  if (/^[+-]?0[xX][0-9a-fA-F]+$/.test(t)) return variant(t.startsWith('-') ? -Number(t.slice(1)) : Number(t.replace(/^\+/, '')));
  t = t.replace(/^\+(?=[^-])/, '');
  let mapped = '';
  for (const ch of t) mapped += /\p{Nd}/u.test(ch) ? (asciiDigit(ch) ?? 'x') : ch;
  mapped = mapped.replace(/(?<=[0-9])_(?=[0-9])/g, '');
  if (/^-?[0-9]+$/.test(mapped)) return variant(Number(mapped));
  if (/^-?[0-9]+\.0*$/.test(mapped)) return variant(Number(mapped));
  if (/^-?[0-9]+(\.[0-9]+)?[eE][+]?[0-9]+$/.test(mapped) && Number.isInteger(Number(mapped))) return variant(Number(mapped));
  return { form: 'none' };
}

function variant(n: number): { form: 'variant'; value: number } | { form: 'none' } {
  return Number.isFinite(n) ? { form: 'variant', value: n === 0 ? 0 : n } : { form: 'none' };
}

/** Options of {@link integerRule}. */
export interface IntegerOptions {
  min: number;
  max: number;
  null: NullRule;
  /** The field also takes "integer string" (§2.2). */
  integerString: boolean;
  /** False where a non-integer number inside the bounds is open (a count whose type is not stated, §2.4 minWords). */
  integerStated?: boolean;
  /** `numeric` where the read's type is "any" (§2.2: the fields merged into settings): a numeric string reads too. */
  reads?: 'number' | 'numeric';
}

/**
 * An integer field (§2.2, §8): an integer within its bounds is accepted and reads back as that
 * number; outside them, in any notation and past 32 or 53 bits, refused; a fraction refused; an
 * integer string accepted in its canonical form and open in the forms some readers take, either
 * way reading back as the number it stands for (response type "number"; where the read's type is
 * "any", the fields merged into settings, as that number or a string of it).
 */
export function integerRule(field: string, cite: Cite, o: IntegerOptions): Judge {
  const within = (n: number) => n >= o.min && n <= o.max;
  const range = `${o.min} to ${o.max}`;
  return (v) => {
    if (v === null) return judgeNull(o.null, cite, field);
    if (typeof v === 'number') {
      if (!within(v)) return j('refuse', cite('bound'), `${field}: ${range}, ${v} sent`);
      const same: Reading = o.reads === 'numeric' ? { kind: 'numeric', value: v } : { kind: 'equals', value: v };
      if (Number.isInteger(v)) return j('accept', [...cite('bound'), READS_BACK], `${field}: an integer within ${range}`, same);
      if (o.integerStated === false)
        return j('either', cite('type'), `${field}: a fraction within ${range}; its type is not stated`, { kind: 'equals', value: v });
      return j('refuse', cite('type'), `${field}: an integer is stated, ${v} sent`);
    }
    if (typeof v !== 'string' || !o.integerString) return j('refuse', cite('type'), `${field}: an integer is stated, ${jsonType(v)} sent`);
    const r = readIntegerString(v);
    if (r.form === 'none') return j('refuse', cite('integer-string'), `${field}: ${JSON.stringify(v)} is no integer string`);
    if (!within(r.value)) return j('refuse', cite('integer-string'), `${field}: ${range}, the string stands for ${r.value}`);
    const reads: Reading = o.reads === 'numeric' ? { kind: 'numeric', value: r.value } : { kind: 'equals', value: r.value };
    if (r.form === 'canonical') return j('accept', cite('integer-string'), `${field}: an integer string within ${range} reads back as a number`, reads);
    return j('either', cite('integer-string'), `${field}: ${JSON.stringify(v)} is an integer string under some readings only`, reads);
  };
}

/** A bounded number whose fractions are stated (§2.4 interruptionPlan.minDuration 0 to 5). */
export function numberRule(field: string, cite: Cite, o: { min: number; max: number; null: NullRule }): Judge {
  return (v) => {
    if (v === null) return judgeNull(o.null, cite, field);
    if (typeof v !== 'number') return j('refuse', cite('type'), `${field}: a number is stated, ${jsonType(v)} sent`);
    if (v < o.min || v > o.max) return j('refuse', cite('bound'), `${field}: ${o.min} to ${o.max}, ${v} sent`);
    return j('accept', [...cite('bound'), READS_BACK], `${field}: a number within ${o.min} to ${o.max}`, { kind: 'equals', value: v });
  };
}

/** A boolean field: true and false accepted and read back; any other JSON type refused; null per `nullRule`. */
export function booleanRule(field: string, cite: Cite, nullRule: NullRule): Judge {
  return (v) => {
    if (v === null) return judgeNull(nullRule, cite, field);
    if (typeof v === 'boolean') return j('accept', [...cite('type'), READS_BACK], `${field}: a boolean`, { kind: 'equals', value: v });
    return j('refuse', cite('type'), `${field}: a boolean is stated, ${jsonType(v)} sent`);
  };
}

/** Options of {@link enumRule}. */
export interface EnumOptions {
  values: readonly string[];
  null: NullRule;
  /** `refuse` where the spec says "matched exactly, case-sensitively" (§2.2 transferMode); else a case variant is open. */
  caseVariant: 'refuse' | 'either';
}

/** An enumeration: each stated value accepted and read back; another string refused (a case variant per `caseVariant`); another type refused. */
export function enumRule(field: string, cite: Cite, o: EnumOptions): Judge {
  return (v) => {
    if (v === null) return judgeNull(o.null, cite, field);
    if (typeof v !== 'string') return j('refuse', cite('type'), `${field}: one of ${o.values.join(', ')}; ${jsonType(v)} sent`);
    if (o.values.includes(v)) return j('accept', [...cite('enum'), READS_BACK], `${field}: a stated value`, { kind: 'equals', value: v });
    const match = o.values.find((x) => x.toLowerCase() === v.toLowerCase());
    if (match && o.caseVariant === 'either') {
      return j('either', cite('enum-case'), `${field}: a case variant of ${match} is not stated`, {
        kind: 'anyOf',
        readings: [
          { kind: 'equals', value: match },
          { kind: 'equals', value: v },
        ],
      });
    }
    return j('refuse', match ? cite('enum-case') : cite('enum'), `${field}: not one of ${o.values.join(', ')}${match ? ' (matched exactly)' : ''}`);
  };
}

const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/**
 * How a string reads as a uuid: `canonical` (8-4-4-4-12 hex, RFC 9562 §4), `variant` (a form
 * some readers take: braces, `urn:uuid:`, 32 hex without hyphens) with its canonical lower-case
 * form, or `none`.
 */
export function readUuid(s: string): { form: 'canonical'; lower: string } | { form: 'variant'; lower: string } | { form: 'none' } {
  if (UUID.test(s)) return { form: 'canonical', lower: s.toLowerCase() };
  const inner = s.replace(/^\{(.*)\}$/, '$1').replace(/^urn:uuid:/i, '');
  if (UUID.test(inner)) return { form: 'variant', lower: inner.toLowerCase() };
  if (/^[0-9a-fA-F]{32}$/.test(inner)) {
    const h = inner.toLowerCase();
    return { form: 'variant', lower: `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}` };
  }
  return { form: 'none' };
}

/**
 * A "uuid string" field (§2.1, §2.2): a string that is no uuid under any reading is refused; a
 * uuid is open where it names another resource (its existence is not stated) and, once accepted,
 * reads back as sent or in lower case; other spellings of a uuid are open.
 */
export function uuidRule(field: string, cite: Cite, o: { reference: boolean; null: NullRule; typeStated?: boolean }): Judge {
  return (v) => {
    if (v === null) return judgeNull(o.null, cite, field);
    if (typeof v !== 'string') return j(o.typeStated === false ? 'either' : 'refuse', cite('type'), `${field}: a uuid string is stated, ${jsonType(v)} sent`);
    const r = readUuid(v);
    if (r.form === 'none') return j(o.typeStated === false ? 'either' : 'refuse', cite('format'), `${field}: ${JSON.stringify(v)} is no uuid`);
    const reads: Reading = v === r.lower ? { kind: 'equals', value: v } : anyOfEquals(v, r.lower);
    if (r.form === 'variant') return j('either', cite('format'), `${field}: a uuid spelt otherwise than 8-4-4-4-12`, reads);
    if (o.reference) {
      return j(
        'either',
        [...cite('format'), '2.2/reference-existence'],
        `${field}: whether the id must name an existing resource is not stated`,
        reads,
        REFERENCE_REFUSAL,
      );
    }
    return j('accept', [...cite('format'), READS_BACK], `${field}: a uuid`, reads);
  };
}

function anyOfEquals(...values: unknown[]): Reading {
  return { kind: 'anyOf', readings: values.map((value) => ({ kind: 'equals', value }) as Reading) };
}

/** Options of {@link listRule}. */
export interface ListOptions {
  null: NullRule;
  /** How `[]` reads (an emptied set). */
  empty: ClearedReading[];
  /** `set`: read back as the same members in any order; `ordered`: as sent, repeats possibly collapsed; `exact`: as sent. */
  order: 'set' | 'ordered' | 'exact';
  /** False where the response type is "any" or not shown: accepted lists are not read. */
  readsBack?: boolean;
}

/**
 * A list field: another type refused; a list with any item the item rule refuses is refused; a
 * list whose items are all accepted is accepted (open when any item is open) and reads back per
 * `order`.
 */
export function listRule(field: string, cite: Cite, item: Judge, o: ListOptions): Judge {
  return (v, ctx) => {
    if (v === null) return judgeNull(o.null, cite, field);
    if (!Array.isArray(v)) return j('refuse', cite('type'), `${field}: an array is stated, ${jsonType(v)} sent`);
    if (v.length === 0)
      return j('accept', cite('reads'), `${field}: [] empties it`, o.readsBack === false ? undefined : { kind: 'cleared', readings: o.empty });
    const items = v.map((x) => item(x, ctx));
    const refused = items.find((x) => x.verdict === 'refuse');
    if (refused) return j('refuse', refused.clauses, `${field}: an item is refused (${refused.rule})`);
    const open = items.find((x) => x.verdict === 'either');
    const reads = o.readsBack === false ? undefined : listReading(v, o.order);
    if (open) return j('either', open.clauses, `${field}: an item is open (${open.rule})`, reads, open.refusal);
    return j('accept', [...items.flatMap((x) => x.clauses), ...cite('reads')], `${field}: every item accepted`, reads);
  };
}

function listReading(v: unknown[], order: ListOptions['order']): Reading {
  if (order === 'set') return { kind: 'set', value: v };
  if (order === 'exact') return { kind: 'equals', value: v };
  const once = v.filter((x, i) => v.findIndex((y) => JSON.stringify(y) === JSON.stringify(x)) === i);
  return once.length === v.length ? { kind: 'equals', value: v } : anyOfEquals(v, once);
}

/**
 * §2.2 failoverNumber, "string, E.164": `+`, a country code and at most 15 ASCII digits in all
 * (ITU-T E.164 §6). Must-accept only for numbers of a plan every validator knows (`valid`: the
 * fictional ranges the generators draw); any other well-formed number is open (a validator that
 * knows each country's plan may refuse it); separators are open; anything else refused.
 */
export function e164Rule(field: string, cite: Cite, o: { null: NullRule; valid: (s: string) => boolean }): Judge {
  return (v) => {
    if (v === null) return judgeNull(o.null, cite, field);
    if (typeof v !== 'string') return j('refuse', cite('type'), `${field}: an E.164 string is stated, ${jsonType(v)} sent`);
    const reads: Reading = { kind: 'equals', value: v };
    if (/^\+[1-9][0-9]{1,14}$/.test(v)) {
      if (o.valid(v)) return j('accept', [...cite('example'), READS_BACK], `${field}: an E.164 number of a known plan`, reads);
      return j('either', cite('example'), `${field}: well-formed E.164; whether its country plan allows it is not stated`, reads);
    }
    const bare = v.replace(/[ \-().]/g, '');
    if (bare !== v && /^\+[1-9][0-9]{1,14}$/.test(bare)) {
      return j('either', cite('example'), `${field}: E.164 written with separators`, anyOfEquals(v, bare));
    }
    return j('refuse', cite('example'), `${field}: not E.164 (+, then at most 15 ASCII digits)`);
  };
}

/** A host as the delivering client reads it (WHATWG URL), brackets of an IPv6 literal removed. */
function urlHost(url: URL): string {
  const h = url.hostname;
  return h.startsWith('[') && h.endsWith(']') ? h.slice(1, -1) : h;
}

/**
 * Whether §2.3 rule 2 forbids an address: private (10/8, 172.16/12, 192.168/16, fc00::/7),
 * loopback, link-local, the unspecified address (it reaches the host itself), and the IPv4-mapped
 * form of any of them. Answers `open` for the special ranges §2.3 does not name (reserved,
 * multicast, shared address space, documentation, the other IPv4-embedding forms).
 */
export function addressClass(address: string): 'forbidden' | 'public' | 'open' {
  let ip: ipaddr.IPv4 | ipaddr.IPv6 = ipaddr.parse(address);
  if (ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).isIPv4MappedAddress()) ip = (ip as ipaddr.IPv6).toIPv4Address();
  const range = ip.range();
  if (['private', 'loopback', 'linkLocal', 'uniqueLocal', 'unspecified'].includes(range)) return 'forbidden';
  if (ip.kind() === 'ipv4' && ip.match(ipaddr.IPv4.parse('0.0.0.0'), 8)) return 'forbidden';
  if (DOCUMENTATION.some(([base, bits]) => ip.kind() === base.kind() && ip.match(base, bits))) return 'public';
  return range === 'unicast' ? 'public' : 'open';
}

/**
 * Documentation ranges (RFC 5737 TEST-NET-1..3, RFC 3849 2001:db8::/32): public space, private to
 * no network, where nothing listens; the suite's public names resolve there (helpers/generate/hosts.ts).
 */
const DOCUMENTATION: [ipaddr.IPv4 | ipaddr.IPv6, number][] = [
  [ipaddr.parse('192.0.2.0'), 24],
  [ipaddr.parse('198.51.100.0'), 24],
  [ipaddr.parse('203.0.113.0'), 24],
  [ipaddr.parse('2001:db8::'), 32],
];

/** What decorates a URL beyond scheme, host and path: forms a careful implementer may refuse. */
function decorations(raw: string, url: URL): string | undefined {
  if (url.username || url.password) return 'userinfo';
  if (url.hash || raw.includes('#')) return 'a fragment';
  if (!raw.startsWith('https://')) return 'the scheme spelt otherwise than https://';
  if (url.port) return 'an explicit port';
  if (/[^\x21-\x7e]/.test(raw)) return 'characters outside printable ASCII';
  if (raw.includes('\\')) return 'a backslash';
  if (url.href !== raw && url.href !== `${raw}/`) return 'a spelling the URL parser rewrites';
  return undefined;
}

/**
 * §2.3 serverUrl: null clears; an https:// URL of at most 1,024 characters whose host, as the
 * delivering client reads it (WHATWG URL: userinfo, backslashes, IPv4 written in decimal, octal or
 * hex, IPv6 literals), is forbidden or does not resolve is refused whatever decorates it; a plain
 * URL to a name that resolves to public addresses only is accepted and reads back as written;
 * IP-literal hosts, names the run did not arrange and decorated URLs are open.
 */
export function serverUrlRule(field: string, cite: Cite): Judge {
  return (v, ctx) => {
    if (v === null) return judgeNull({ reads: ['null'] }, cite, field);
    if (typeof v !== 'string') return j('refuse', cite('type'), `${field}: a string or null is stated, ${jsonType(v)} sent`);
    const { units, points } = textLengths(v);
    if (units > 1024 && points > 1024) return j('refuse', cite('length'), `${field}: more than 1,024 characters`);
    let url: URL;
    try {
      url = new URL(v);
    } catch {
      return j('refuse', cite('example'), `${field}: not a URL`);
    }
    if (url.protocol !== 'https:') return j('refuse', cite('example'), `${field}: https only, ${url.protocol} sent`);
    const host = urlHost(url);
    const reads: Reading = { kind: 'equals', value: v };
    const literal = ipaddr.isValid(host) && /^[0-9a-f:.]+$/i.test(host);
    const addresses = literal ? [host] : ctx.resolve?.(host);
    if (addresses && addresses.length === 0) return j('refuse', ['2.3/hostname-must-resolve'], `${field}: ${host} does not resolve`);
    const classes = addresses?.map(addressClass);
    if (classes?.includes('forbidden')) {
      const clause = addresses!.some((a) => ipaddr.parse(a).range() === 'unspecified') ? '2.3/no-unspecified-address' : '2.3/no-private-addresses';
      return j('refuse', [clause], `${field}: ${host} is or resolves to a forbidden address`);
    }
    if (units > 1024 || points > 1024) return j('either', cite('length'), `${field}: 1,024 characters under one reading only`, reads);
    if (!classes) return j('either', cite('reads'), `${field}: the run does not know what ${host} resolves to`, reads);
    if (literal) return j('either', ['2.3/public-name-accepted'], `${field}: whether an IP literal is "a hostname that resolves" is not stated`, reads);
    if (classes.includes('open')) return j('either', ['2.3/public-name-accepted'], `${field}: ${host} resolves to an address §2.3 does not name`, reads);
    const decorated = decorations(v, url);
    if (decorated) return j('either', ['2.3/public-name-accepted'], `${field}: ${decorated} is not stated`, reads);
    return j('accept', ['2.3/public-name-accepted', READS_BACK], `${field}: https:// to a name resolving to public addresses`, reads);
  };
}

/** The eleven §2.6 language codes. */
export const LANGUAGES: readonly string[] = ['en', 'fr', 'de', 'es', 'it', 'pt', 'ar', 'nl', 'hi', 'ru', 'ja'];

/**
 * §2.6 rules 3-4, an entry's `language`: a listed code accepted as is; a regional locale of one
 * (`en-GB`) accepted and stored as its base code; null accepted; other spellings of a listed
 * code's locale (`EN`, `pt_BR`, `es-419`) open; a language name or a code outside the list refused.
 */
export function languageRule(field: string, cite: Cite): Judge {
  return (v) => {
    if (v === null) return judgeNull({ reads: ['null', 'absent'] }, cite, field);
    if (typeof v !== 'string') return j('refuse', cite('type'), `${field}: a code is stated, ${jsonType(v)} sent`);
    if (LANGUAGES.includes(v)) return j('accept', [...cite('enum'), READS_BACK], `${field}: a listed code`, { kind: 'equals', value: v });
    const base = /^([a-z]{2})-[A-Za-z]{2,3}$/.exec(v)?.[1];
    if (base && LANGUAGES.includes(base) && /^[a-z]{2}-[A-Za-z]{2}$/.test(v)) {
      return j('accept', ['2.6/regional-locale-base-code'], `${field}: a regional locale is stored as its base code`, { kind: 'equals', value: base });
    }
    const loose = /^([A-Za-z]{2})(?:[-_]([A-Za-z]{2,3}|[0-9]{3}))?$/.exec(v);
    const code = loose?.[1].toLowerCase();
    if (code && LANGUAGES.includes(code)) return j('either', cite('enum'), `${field}: ${JSON.stringify(v)} spells ${code} otherwise`, anyOfEquals(code, v));
    return j('refuse', ['2.6/language-name-rejected'], `${field}: not a listed code nor a regional locale of one`);
  };
}

/** Keys a JSON object may carry that many stores refuse (they name a prototype in JavaScript). */
const PROTOTYPE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** True when a value holds a key of {@link PROTOTYPE_KEYS} at any depth. */
export function holdsPrototypeKey(v: unknown): boolean {
  if (Array.isArray(v)) return v.some(holdsPrototypeKey);
  if (!v || typeof v !== 'object') return false;
  return Object.keys(v).some((k) => PROTOTYPE_KEYS.has(k) || holdsPrototypeKey((v as Record<string, unknown>)[k]));
}

/** A copy of an object without its null members, at every depth of nested objects (arrays kept whole). */
export function withoutNulls(v: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) {
    if (x === null) continue;
    out[k] = x && typeof x === 'object' && !Array.isArray(x) ? withoutNulls(x as Record<string, unknown>) : x;
  }
  return out;
}

/**
 * A free-form JSON object (§2.2 parameters, §2.7 ivrSettings): any object accepted (one holding a
 * prototype-named key open), read back holding every member sent that is not null (a merge may
 * keep other keys; a null member deletes or is kept); another type per `otherType`.
 */
export function freeObjectRule(field: string, cite: Cite, o: { null: NullRule; otherType: 'refuse' | 'either' }): Judge {
  return (v) => {
    if (v === null) return judgeNull(o.null, cite, field);
    if (!v || typeof v !== 'object' || Array.isArray(v)) {
      return j(
        o.otherType,
        cite('type'),
        `${field}: an object is stated, ${jsonType(v)} sent${o.otherType === 'either' ? ' (type not stated precisely)' : ''}`,
      );
    }
    const reads: Reading = { kind: 'contains', value: withoutNulls(v as Record<string, unknown>) };
    if (holdsPrototypeKey(v)) return j('either', cite('reads'), `${field}: a key named __proto__, constructor or prototype`, reads);
    return j('accept', [...cite('reads'), READS_BACK], `${field}: a JSON object`, reads);
  };
}

/** A value of any JSON type whose type, unit and bounds are not shown (§2.4 rule 4): null per `nullRule`, anything else open, read back as sent. */
export function anyValueRule(field: string, cite: Cite, nullRule: NullRule): Judge {
  return (v) => {
    if (v === null) return judgeNull(nullRule, cite, field);
    return j('either', cite('type'), `${field}: type, unit and bounds not shown`, { kind: 'equals', value: v });
  };
}

/**
 * A typed object (§2.4 plans and expressiveOptions, §2.5 transferSettings, §2.6 dictionarySettings,
 * §4.5 textInstructions): an object accepted (open when `open` says so of it) and read back holding
 * every non-null member sent; null per `nullRule`; another type refused. Members are judged by
 * their own rows.
 */
export function objectRule(
  field: string,
  cite: Cite,
  o: {
    null: NullRule;
    known?: readonly string[];
    unknownKey?: 'refuse';
    reads?: 'contains' | 'unjudged';
    open?: (v: Record<string, unknown>) => string | undefined;
  },
): Judge {
  return (v) => {
    if (v === null) return judgeNull(o.null, cite, field);
    if (!v || typeof v !== 'object' || Array.isArray(v)) return j('refuse', cite('type'), `${field}: an object is stated, ${jsonType(v)} sent`);
    const obj = v as Record<string, unknown>;
    const unknown = o.known ? Object.keys(obj).filter((k) => !o.known!.includes(k)) : [];
    if (unknown.length && o.unknownKey === 'refuse') return j('refuse', cite('unknown-key'), `${field}: unknown key ${unknown[0]}`);
    const reads: Reading | undefined = o.reads === 'unjudged' ? undefined : { kind: 'contains', value: withoutNulls(obj) };
    const why =
      o.open?.(obj) ??
      (unknown.length ? `unlisted key ${unknown[0]} is not stated` : holdsPrototypeKey(obj) ? 'a key named __proto__, constructor or prototype' : undefined);
    if (why) return j('either', cite('reads'), `${field}: ${why}`, reads);
    return j('accept', [...cite('reads'), ...(reads ? [READS_BACK] : [])], `${field}: an object of its stated shape`, reads);
  };
}

/**
 * A member of a document whose inside is not validated (§2.7 ivrMode): any value accepted and read
 * back (an object holding every non-null member sent: a null inside may delete); null deletes it (a
 * later GET omits it).
 */
export function anyAcceptedRule(field: string, cite: Cite): Judge {
  return (v) => {
    if (v === null) return judgeNull({ reads: ['absent'] }, cite, field);
    const isObject = typeof v === 'object' && !Array.isArray(v);
    const reads: Reading = isObject ? { kind: 'contains', value: withoutNulls(v as Record<string, unknown>) } : { kind: 'equals', value: v };
    if (holdsPrototypeKey(v)) return j('either', cite('reads'), `${field}: a key named __proto__, constructor or prototype`, reads);
    return j('accept', [...cite('reads'), READS_BACK], `${field}: no inner structure is validated`, reads);
  };
}

/** A field whose value the spec leaves wholly open (type and effect not shown): every value open, nothing read. */
export function openRule(field: string, cite: Cite, why: string): Judge {
  return () => j('either', cite('type'), `${field}: ${why}`);
}
