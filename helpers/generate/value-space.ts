/**
 * Generators over the space each request field lives in (fast-check arbitraries), from the
 * standards the spec builds on rather than from the values it mentions: JSON (RFC 8259: every
 * type, numbers past 32 and 53 bits, nested values), Unicode (astral characters, combining marks,
 * digits of other scripts, blanks), URLs (WHATWG URL and RFC 3986: userinfo, IPv4 in decimal,
 * octal and hex, IPv6 literals, paths, query strings, fragments, ports), E.164 (ITU-T), IANA zone
 * names, UUIDs (RFC 9562) and BCP 47 language tags. Each field kind of the oracle
 * (helpers/generate/oracle.ts `FieldKind`) gets named value classes; a drawn value is judged by the
 * oracle, never by its class, so a class may hold values of every verdict.
 */
import fc from 'fast-check';
import { DIGIT_ZEROS, LANGUAGES } from './oracle-rules';
import type { OracleRow } from './oracle';
import { canonicalZones, VALID_PLAN_NUMBERS } from './oracle-table';

export { VALUE_CLASSES_TRIED } from './value-classes';

/** A named class of values for one field: what the run report lists as tried. */
export interface ValueClass {
  /** e.g. `integer strings in other scripts' digits`. */
  name: string;
  arb: fc.Arbitrary<unknown>;
  /** Values always tried before the draws: the edge of the class a plausible implementation gets wrong. */
  edges?: readonly unknown[];
}

/** Host names a serverUrl is built with, arranged by the run (helpers/generate/hosts.ts); an absent one leaves its classes out. */
export interface UrlHosts {
  /** Resolves to public addresses only. */
  public: string;
  /** Resolves to a private address (needs a simulator's DNS or a wildcard DNS service). */
  private?: string;
  /** Does not resolve. */
  nowhere?: string;
}

/** JSON values of every type, two levels deep (RFC 8259). */
const anyJson = fc.jsonValue({ maxDepth: 2 });

/** A value of another JSON type than `keep` (`number`, `string`, `boolean`, `array`, `object`). */
function otherTypes(...keep: string[]): fc.Arbitrary<unknown> {
  const all: [string, fc.Arbitrary<unknown>][] = [
    ['number', fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }))],
    ['string', fc.string({ maxLength: 8 })],
    ['boolean', fc.boolean()],
    ['array', fc.array(fc.oneof(fc.integer(), fc.string({ maxLength: 4 })), { maxLength: 3 })],
    ['object', fc.dictionary(fc.string({ minLength: 1, maxLength: 6 }), fc.oneof(fc.integer(), fc.string({ maxLength: 4 })), { maxKeys: 3 })],
  ];
  return fc.oneof(...all.filter(([t]) => !keep.includes(t)).map(([, a]) => a));
}

/** Code points U+D800 to U+DFFF (the surrogates), which fast-check's `binary` unit leaves out. */
const SURROGATES = 0xe000 - 0xd800;

/**
 * One character of fast-check's `binary` string unit (every code point but the surrogates), drawing
 * exactly what that unit draws for a seed: the same index over the same two ranges, and the way back
 * from a character to its index, so `fc.string` builds the same slices. Issue 43: fast-check's own
 * unit maps each of its 1.1 million characters back to its index the first time a string of it is
 * built, 3 to 5 s of CPU in every worker that collects a file using the text classes.
 */
const binaryUnit: fc.Arbitrary<string> = fc.nat({ max: 0x10ffff - SURROGATES }).map(
  (i) => String.fromCodePoint(i < 0xd800 ? i : i + SURROGATES),
  (v) => {
    const cp = typeof v === 'string' ? v.codePointAt(0) : undefined;
    if (cp === undefined || String.fromCodePoint(cp) !== v || (cp >= 0xd800 && cp < 0xe000)) throw new Error('not a character of the binary unit');
    return cp < 0xd800 ? cp : cp - SURROGATES;
  },
);

/**
 * One UTF-16 code unit of the surrogate range, U+D800 to U+DFFF, alone: text a careful JSON reader
 * may keep or refuse (JSON allows the escape, Unicode does not allow the character).
 */
const loneSurrogate: fc.Arbitrary<string> = fc.integer({ min: 0xd800, max: 0xdfff }).map(
  (u) => String.fromCharCode(u),
  (v) => {
    const u = typeof v === 'string' && v.length === 1 ? v.charCodeAt(0) : -1;
    if (u < 0xd800 || u > 0xdfff) throw new Error('not a lone surrogate');
    return u;
  },
);

/**
 * Any code point, one in ten a lone surrogate: {@link binaryUnit} leaves the surrogates out, so the
 * class that names them drew none (noticed in issue 43).
 */
const codePointUnit: fc.Arbitrary<string> = fc.oneof({ arbitrary: binaryUnit, weight: 9 }, { arbitrary: loneSurrogate, weight: 1 });

/** Text of `unit` between `min` and `max` characters (`code points`: {@link codePointUnit}). */
const textOf = (unit: 'grapheme' | 'grapheme-ascii' | 'code points', min: number, max: number) =>
  fc.string({ unit: unit === 'code points' ? codePointUnit : unit, minLength: min, maxLength: max });

/** The classes of a text field; `max` is its stated limit (characters), if any. */
export function textClasses(max?: number): ValueClass[] {
  const out: ValueClass[] = [
    { name: 'printable ASCII', arb: textOf('grapheme-ascii', 1, 40) },
    { name: 'Unicode graphemes (astral, combining, emoji)', arb: textOf('grapheme', 1, 20) },
    { name: 'any code points (control characters, lone surrogates)', edges: ['', '\ud800', 'a\udc00b'], arb: textOf('code points', 0, 12) },
    {
      name: 'blanks around text',
      arb: fc.tuple(fc.constantFrom(' ', '\t', '\u00a0', '\u3000'), textOf('grapheme-ascii', 1, 10)).map(([b, t]) => `${b}${t}${b}`),
    },
    { name: 'other JSON types and null', arb: fc.oneof(otherTypes('string'), fc.constant(null)) },
  ];
  if (max !== undefined) {
    out.push({
      name: `lengths around ${max}`,
      edges: ['é'.repeat(max), 'é'.repeat(max + 1)],
      arb: fc.integer({ min: max - 2, max: max + 2 }).map((n) => 'é'.repeat(n)),
    });
    out.push({ name: `astral text around ${max} UTF-16 units`, arb: fc.integer({ min: max / 2 - 1, max: max / 2 + 1 }).map((n) => '😀'.repeat(n)) });
  }
  return out;
}

/** A decimal string of `n` written in the digits of another script (Unicode Nd, helpers/generate/oracle-rules.ts `DIGIT_ZEROS`). */
function foreignDigits(n: number, zero: number): string {
  return String(n).replace(/[0-9]/g, (d) => String.fromCodePoint(zero + Number(d)));
}

/** The classes of an integer field with bounds `min`..`max`; `strings` where it also takes an integer string. */
export function integerClasses(min: number, max: number, strings: boolean): ValueClass[] {
  const inside = fc.integer({ min, max });
  const out: ValueClass[] = [
    { name: 'integers within the bounds', arb: inside },
    { name: 'edges and one beyond', arb: fc.constantFrom(min - 1, min, max, max + 1) },
    {
      name: 'integers past 32 and 53 bits',
      edges: [2 ** 32 + min],
      arb: fc.oneof(
        fc.constantFrom(2 ** 32 + min, 2 ** 31, -(2 ** 31) - 1, 2 ** 53 + 2),
        fc.integer({ min: 2 ** 30, max: 2 ** 31 - 1 }).map((n) => n * 4),
      ),
    },
    {
      // fast-check's double draws most values near 0 and the bounds' exponents (nine in ten below 1
      // for a bound of 3600): an integer plus a binary fraction spreads them over the whole range.
      name: 'fractions',
      edges: [min + 0.5, max - 0.5],
      arb: fc
        .oneof(
          fc.noBias(fc.tuple(fc.integer({ min: min - 1, max }), fc.integer({ min: 1, max: 2 ** 20 - 1 }))).map(([n, k]) => n + k / 2 ** 20),
          fc.double({ min: min - 1, max: max + 1, noNaN: true }),
        )
        .filter((x) => !Number.isInteger(x)),
    },
    { name: 'other JSON types and null', arb: fc.oneof(otherTypes('number', 'string'), fc.constant(null)) },
  ];
  if (!strings) return out;
  return [
    ...out,
    { name: 'integer strings', edges: [String(min)], arb: fc.integer({ min: min - 2, max: max + 2 }).map(String) },
    { name: "integer strings in other scripts' digits", arb: fc.tuple(inside, fc.constantFrom(...DIGIT_ZEROS.slice(1))).map(([n, z]) => foreignDigits(n, z)) },
    {
      name: 'integer strings some readers take (+, blanks, leading zeros, 3e1, 0x1e)',
      arb: fc
        .tuple(inside, fc.constantFrom('+%', ' %', '% ', '0%', '%.0', 'x'))
        .map(([n, f]) => (f === 'x' ? `0x${n.toString(16)}` : f.replace('%', String(n)))),
    },
    {
      name: 'strings that are no integer',
      arb: fc.oneof(
        fc.string({ maxLength: 6 }),
        fc.tuple(inside, fc.constantFrom('abc', 's', '.5', '-')).map(([n, s]) => `${n}${s}`),
      ),
    },
    { name: 'integer strings past 32 bits', edges: [String(2 ** 32 + max)], arb: fc.bigInt({ min: 2n ** 31n, max: 2n ** 70n }).map(String) },
  ];
}

/** The classes of a bounded number whose fractions are stated. */
export function numberClasses(min: number, max: number): ValueClass[] {
  return [
    { name: 'numbers within the bounds', arb: fc.double({ min, max, noNaN: true }) },
    {
      name: 'numbers beyond the bounds',
      arb: fc.oneof(fc.double({ min: max, max: 1e12, noNaN: true, minExcluded: true }), fc.double({ min: -1e12, max: min, noNaN: true, maxExcluded: true })),
    },
    { name: 'other JSON types and null', arb: fc.oneof(otherTypes('number'), fc.constant(null)) },
  ];
}

/** The classes of a boolean field. */
export function booleanClasses(): ValueClass[] {
  return [
    { name: 'booleans', arb: fc.boolean() },
    { name: 'boolean lookalikes ("true", 1, 0, "yes")', arb: fc.constantFrom('true', 'false', 1, 0, 'yes', 'on') },
    { name: 'other JSON types and null', arb: fc.oneof(otherTypes('boolean'), fc.constant(null)) },
  ];
}

/** The classes of an enumerated field. */
export function enumClasses(values: readonly string[]): ValueClass[] {
  const v = fc.constantFrom(...values);
  return [
    { name: 'stated values', arb: v },
    { name: 'case variants', arb: v.map((x) => (x === x.toUpperCase() ? x.toLowerCase() : x.toUpperCase())) },
    { name: 'lookalikes (blanks, Unicode hyphens and letters)', arb: fc.tuple(v, fc.constantFrom(' %', '% ', 'hy', 'dot')).map(([x, f]) => lookalike(x, f)) },
    { name: 'other strings', arb: fc.string({ maxLength: 12 }) },
    { name: 'other JSON types and null', arb: fc.oneof(otherTypes('string'), fc.constant(null)) },
  ];
}

function lookalike(x: string, how: string): string {
  if (how === 'hy') return x.includes('-') ? x.replace('-', '\u2010') : `${x}\u200b`;
  if (how === 'dot') return x.replace(/[ae]/, (c) => (c === 'a' ? '\u0430' : '\u0435'));
  return how.replace('%', x);
}

/** Uuids of every version and variant (RFC 9562), lower case. */
const uuid = fc.uuid({ version: [1, 2, 3, 4, 5, 6, 7, 8] });

/** The classes of a uuid field. */
export function uuidClasses(): ValueClass[] {
  return [
    { name: 'uuids of every version', arb: uuid },
    {
      name: 'uuid spellings (upper case, braces, urn:uuid:, no hyphens)',
      arb: fc
        .tuple(uuid, fc.constantFrom('U', 'B', 'N', 'H'))
        .map(([u, f]) => ({ U: u.toUpperCase(), B: `{${u}}`, N: `urn:uuid:${u}`, H: u.replace(/-/g, '') })[f]),
    },
    {
      name: 'strings that are no uuid',
      arb: fc.oneof(
        fc.string({ maxLength: 12 }),
        uuid.map((u) => u.slice(1)),
        uuid.map((u) => `${u.slice(0, -1)}g`),
      ),
    },
    { name: 'other JSON types and null', arb: fc.oneof(otherTypes('string'), fc.constant(null)) },
  ];
}

/** The classes of a list of `item` classes. */
export function listClasses(items: ValueClass[], itemName: string): ValueClass[] {
  return [
    { name: '[]', arb: fc.constant([]) },
    ...items.slice(0, 3).map((c) => ({ name: `lists of ${c.name}`, arb: fc.array(c.arb, { minLength: 1, maxLength: 4 }) })),
    { name: `lists mixing ${itemName} and other types`, arb: fc.tuple(items[0].arb, otherTypes('string')).map(([a, b]) => [a, b]) },
    { name: 'other JSON types and null', arb: fc.oneof(otherTypes('array'), fc.constant(null)) },
  ];
}

/** E.164 numbers (ITU-T E.164 §6: `+`, country code, at most 15 digits). */
export function e164Classes(): ValueClass[] {
  const planned = fc.constantFrom(...VALID_PLAN_NUMBERS).chain((r) => fc.stringMatching(r));
  return [
    { name: 'numbers of known plans', arb: planned },
    { name: 'well-formed E.164 of any country', arb: fc.stringMatching(/^\+[1-9][0-9]{6,14}$/) },
    { name: 'more than 15 digits', arb: fc.stringMatching(/^\+[1-9][0-9]{15,18}$/) },
    {
      name: "other scripts' digits",
      arb: fc.tuple(planned, fc.constantFrom(...DIGIT_ZEROS.slice(1))).map(([n, z]) => `+${foreignDigits(Number(n.slice(1)), z)}`),
    },
    {
      name: 'separators, no +, a leading 0',
      arb: planned.chain((n) => fc.constantFrom(`${n.slice(0, 2)} ${n.slice(2, 5)} ${n.slice(5)}`, n.slice(1), `+0${n.slice(2)}`, `00${n.slice(1)}`)),
    },
    { name: 'other JSON types and null', arb: fc.oneof(otherTypes('string'), fc.constant(null)) },
  ];
}

/** IANA zone names and what is not one. */
export function zoneClasses(): ValueClass[] {
  const zones = [...canonicalZones()];
  return [
    { name: 'canonical IANA zones', arb: fc.constantFrom(...zones) },
    {
      name: 'aliases and case variants',
      arb: fc.oneof(
        fc.constantFrom('US/Eastern', 'Asia/Calcutta', 'EST', 'Etc/GMT+5', 'GB'),
        fc.constantFrom(...zones).map((z) => z.toLowerCase()),
      ),
    },
    { name: 'names of no zone', arb: fc.oneof(fc.constantFrom('Mars/Olympus', 'UTC+25', '', 'Europe/Nowhere'), fc.stringMatching(/^[0-9 +:-]{1,6}$/)) },
    { name: 'other JSON types and null', arb: fc.oneof(otherTypes('string'), fc.constant(null)) },
  ];
}

/**
 * RFC 3986 §2.1 pct-encoded: one Unicode scalar value (ASCII or beyond, never a surrogate) written
 * as its UTF-8 octets, so that a decoded path is valid UTF-8 (as `fc.webPath` writes it).
 */
const pctEncoded = fc
  .tuple(
    fc.oneof(
      fc.integer({ min: 0, max: 0x7f }),
      fc.integer({ min: 0x80, max: 0x10ffff }).filter((n) => n < 0xd800 || n > 0xdfff),
    ),
    fc.boolean(),
  )
  .map(([n, upper]) =>
    [...new TextEncoder().encode(String.fromCodePoint(n))]
      .map((b) => {
        // Hex digits in either case (RFC 3986 §2.1: equivalent), as fc.webPath draws them.
        const hex = b.toString(16).padStart(2, '0');
        return `%${upper ? hex.toUpperCase() : hex}`;
      })
      .join(''),
  );

/** RFC 3986 §3.3 pchar: unreserved, sub-delims, ":" and "@" as they are, or pct-encoded. */
const pchar = fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...`ABCXYZabcxyz0189-._~!$&'()*+,;=:@`) }, { weight: 1, arbitrary: pctEncoded });

/**
 * RFC 3986 §3.3 path-abempty (`*( "/" segment )`, at most 5 segments of at most 10 pchars; an
 * empty path written `/`) and §3.4 query (`*( pchar / "/" / "?" )`, 1 to 20 units, or none: a bare
 * "?" is never drawn, since a URL library may drop an empty query).
 * These and {@link userinfo} are built from the grammar, not with `fc.webPath`,
 * `fc.webQueryParameters` and `fc.webAuthority`: those build a reverse map of every code point
 * when first made, 1.5–2.5 s of CPU in each run's collection.
 */
const urlTail = fc
  .tuple(
    fc.array(fc.string({ unit: pchar, maxLength: 10 }), { maxLength: 5 }),
    fc.option(fc.string({ unit: fc.oneof({ weight: 8, arbitrary: pchar }, { weight: 1, arbitrary: fc.constantFrom('/', '?') }), maxLength: 20 }), {
      nil: undefined,
    }),
  )
  .map(([segments, q]) => `${segments.map((s) => `/${s}`).join('') || '/'}${q ? `?${q}` : ''}`);

/** RFC 3986 §3.2.1 userinfo, 1 to 12 units: pchars but "@" (a "user:password" among them). */
const userinfo = fc.string({ unit: pchar.filter((c) => c !== '@'), minLength: 1, maxLength: 12 });

/** URLs for a serverUrl, built on `hosts` (WHATWG URL; RFC 3986 userinfo, paths and queries; RFC 6874 IPv6 literals). */
export function urlClasses(hosts: UrlHosts): ValueClass[] {
  const tail = urlTail;
  const on = (host: fc.Arbitrary<string>) => fc.tuple(host, tail).map(([h, t]) => `https://${h}${t}`);
  const out: ValueClass[] = [
    { name: 'https to a public name, with paths and query strings', arb: on(fc.constant(hosts.public)) },
    {
      name: 'userinfo before a public name',
      arb: fc.tuple(userinfo, tail).map(([u, t]) => `https://${u}@${hosts.public}${t}`),
    },
    { name: 'IPv4 literals', arb: on(fc.ipV4()) },
    { name: 'IPv4 in decimal, octal and hex forms', arb: on(fc.ipV4Extended()) },
    { name: 'IPv6 literals', arb: on(fc.ipV6().map((a) => `[${a}]`)) },
    {
      name: 'a public name as userinfo before a private address',
      arb: on(fc.constantFrom('10.0.0.1', '127.0.0.1', '[::1]', '169.254.169.254').map((a) => `${hosts.public}@${a}`)),
    },
    { name: 'other schemes and spellings', arb: fc.constantFrom('http', 'HTTPS', 'ftp', 'wss', 'https:').map((s) => `${s}://${hosts.public}/hook`) },
    { name: 'lengths around 1,024', arb: fc.integer({ min: 1022, max: 1026 }).map((n) => pad(`https://${hosts.public}/`, n)) },
    {
      name: 'ports and fragments',
      arb: fc.tuple(fc.constantFrom(':443', ':8443', ''), fc.constantFrom('#frag', '')).map(([p, f]) => `https://${hosts.public}${p}/hook${f}`),
    },
    { name: 'other JSON types and null', arb: fc.oneof(otherTypes('string'), fc.constant(null)) },
  ];
  if (hosts.private) out.push({ name: 'a name resolving to a private address', arb: on(fc.constant(hosts.private)) });
  if (hosts.nowhere) out.push({ name: 'a name that does not resolve', arb: on(fc.constant(hosts.nowhere)) });
  return out;
}

function pad(prefix: string, n: number): string {
  return prefix + 'a'.repeat(Math.max(0, n - prefix.length));
}

/** BCP 47 tags around the eleven §2.6 codes. */
export function languageClasses(): ValueClass[] {
  const code = fc.constantFrom(...LANGUAGES);
  return [
    { name: 'listed codes', arb: code },
    { name: 'regional locales', arb: fc.tuple(code, fc.constantFrom('GB', 'US', 'CA', 'BR', 'CH', 'IN')).map(([c, r]) => `${c}-${r}`) },
    {
      name: 'other spellings (EN, pt_BR, es-419)',
      arb: fc.tuple(code, fc.constantFrom('U', '_BR', '-419', '-gb')).map(([c, f]) => (f === 'U' ? c.toUpperCase() : c + f)),
    },
    {
      name: 'language names and unlisted codes',
      arb: fc.oneof(fc.constantFrom('English', 'français', 'zh', 'xx', 'zz-ZZ', 'e'), fc.stringMatching(/^[a-z]{3}$/)),
    },
    { name: 'other JSON types and null', arb: fc.oneof(otherTypes('string'), fc.constant(null)) },
  ];
}

/** JSON objects (RFC 8259), for free-form and typed documents. */
export function objectClasses(): ValueClass[] {
  return [
    { name: 'JSON objects', arb: fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), anyJson, { maxKeys: 4 }) },
    { name: '{}', arb: fc.constant({}) },
    { name: 'other JSON types and null', arb: fc.oneof(otherTypes('object'), fc.constant(null)) },
  ];
}

/** Any JSON value (a field whose type is not shown). */
export function anyClasses(): ValueClass[] {
  return [
    { name: 'numbers', arb: fc.double({ noNaN: true, noDefaultInfinity: true }) },
    { name: 'JSON values', arb: anyJson },
  ];
}

/** The value classes the generators draw for a row of the oracle, by its kind. */
export function classesFor(row: OracleRow, hosts: UrlHosts): ValueClass[] {
  switch (row.kind) {
    case 'text':
      return textClasses(row.max);
    case 'integer':
      return integerClasses(row.min ?? 0, row.max ?? 100, row.path.length === 1);
    case 'number':
      return numberClasses(row.min ?? 0, row.max ?? 5);
    case 'boolean':
      return booleanClasses();
    case 'enum':
      return enumClasses(row.values ?? []);
    case 'uuid':
      return uuidClasses();
    case 'uuid-list':
      return listClasses(uuidClasses(), 'uuids');
    case 'text-list':
    case 'url-list':
      return listClasses(textClasses(), 'strings');
    case 'e164':
      return e164Classes();
    case 'zone':
      return zoneClasses();
    case 'url':
      return urlClasses(hosts);
    case 'language':
      return languageClasses();
    case 'object':
      return objectClasses();
    case 'any':
      return anyClasses();
  }
}
