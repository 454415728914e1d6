/**
 * The ways a key can be presented (§5.1, §5.6), as one table: the variant's name, the credential
 * header it forms from a key, the clauses it proves, and its words for test names. The client
 * (helpers/http/client.ts `withVariant`, `authHeaders`) forms requests from it, and suites/auth.test.ts
 * writes one test per malformed variant from it, so a new variant is one row here.
 */

/** One way to present a key. */
export interface AuthVariantRow {
  /** Its name, e.g. `bearer` (what `ApiClient.withVariant` takes). */
  readonly variant: string;
  /** The credential headers it forms from a key (lower-case names); `{}` sends none. */
  readonly header: (key: string) => Record<string, string>;
  /** Catalogue clauses a request in this form proves (`spec/clauses/`). */
  readonly clauses: readonly string[];
  /** Words for the form in test names and messages, e.g. "`Authorization: Bearer <key>`". */
  readonly words: string;
}

/**
 * Every way a key is presented: `apikey` (`Authorization: ApiKey <key>`, the only accepted form,
 * §5.1) first, then the malformed ones §5.1 and §5.6 refuse with 401 UNAUTHORIZED. A raw newline
 * cannot travel in an HTTP header, so `escaped-newline` sends the two characters `\n`, as a secret
 * store that kept an escaped trailing newline delivers it (raw bytes: suites/auth.test.ts over
 * helpers/http/raw-http.ts).
 */
export const AUTH_VARIANTS = [
  { variant: 'apikey', header: (k) => ({ authorization: `ApiKey ${k}` }), clauses: ['5.1/apikey-scheme'], words: '`ApiKey <key>`' },
  { variant: 'missing', header: () => ({}), clauses: ['5.1/missing-header-401'], words: 'no Authorization header' },
  { variant: 'bearer', header: (k) => ({ authorization: `Bearer ${k}` }), clauses: ['5.1/bearer-401'], words: '`Authorization: Bearer <key>`' },
  { variant: 'bare', header: (k) => ({ authorization: k }), clauses: ['5.1/bare-key-401'], words: 'a bare key in Authorization' },
  { variant: 'x-api-key', header: (k) => ({ 'x-api-key': k }), clauses: ['5.1/x-api-key-401'], words: 'the key in `X-Api-Key`' },
  {
    variant: 'lowercase-scheme',
    header: (k) => ({ authorization: `apikey ${k}` }),
    clauses: ['5.1/scheme-exact'],
    words: '`Authorization: apikey <key>` (scheme not exactly ApiKey)',
  },
  {
    variant: 'escaped-newline',
    header: (k) => ({ authorization: `ApiKey ${k}\\n` }),
    clauses: ['5.6/401-trailing-newline'],
    words: 'the key with a trailing escaped newline `\\n`',
  },
  {
    variant: 'encoded-newline',
    header: (k) => ({ authorization: `ApiKey ${k}%0A` }),
    clauses: ['5.6/401-trailing-newline'],
    words: 'the key with a trailing `%0A`',
  },
  {
    variant: 'unexpanded-variable',
    header: () => ({ authorization: 'ApiKey $CORE_API_KEY' }),
    clauses: ['5.6/401-unexpanded-variable'],
    words: 'an unexpanded `$CORE_API_KEY`',
  },
  {
    variant: 'unexpanded-braces',
    header: () => ({ authorization: 'ApiKey ${CORE_API_KEY}' }),
    clauses: ['5.6/401-unexpanded-variable'],
    words: 'an unexpanded `${CORE_API_KEY}`',
  },
  { variant: 'empty-key', header: () => ({ authorization: 'ApiKey ' }), clauses: ['5.6/401-malformed-header'], words: '`ApiKey` with no key' },
] as const satisfies readonly AuthVariantRow[];

/** The name of a way to present a key: `apikey` or one of the malformed forms of {@link AUTH_VARIANTS}. */
export type AuthVariant = (typeof AUTH_VARIANTS)[number]['variant'];

/** A row of {@link AUTH_VARIANTS}, its `variant` typed as an {@link AuthVariant}. */
export type KnownAuthVariantRow = (typeof AUTH_VARIANTS)[number];

/** Every malformed variant, i.e. all rows but `apikey`, in table order. */
export const MALFORMED_AUTH_VARIANTS: readonly KnownAuthVariantRow[] = AUTH_VARIANTS.filter((v) => v.variant !== 'apikey');

const BY_NAME = new Map<string, AuthVariantRow>(AUTH_VARIANTS.map((v) => [v.variant, v]));

/**
 * The credential headers of one variant for a key (§5.1); none when there is no key.
 * @throws Error for a name that is not in {@link AUTH_VARIANTS} (a caller typed outside AuthVariant)
 */
export function authHeaders(key: string | undefined, variant: AuthVariant = 'apikey'): Record<string, string> {
  const row = BY_NAME.get(variant);
  if (!row) throw new Error(`unknown auth variant ${JSON.stringify(variant)}`);
  return key === undefined ? {} : row.header(key);
}
