/**
 * The simulator's configuration (docs/control-api.md "Config keys and defaults"): its keys, their
 * defaults, and the value types of the keys the simulator adds to the control contract
 * (`faults`, `chaos`, `personality`). A leaf module: it imports nothing, so the store (state.ts),
 * chaos mode (chaos.ts) and the personalities (personality.ts) can all depend on it without
 * depending on one another.
 */

/**
 * The simulator's readings of the spec (personality.ts): `default`, or `alt`, which takes the
 * other choice wherever the spec leaves one open.
 */
export type Personality = 'default' | 'alt';

/** Every personality, for validation of the config key and the CLI flag. */
export const PERSONALITIES: readonly Personality[] = ['default', 'alt'];

/** Chaos settings (chaos.ts, which also validates them); absent or null when chaos is off. */
export interface ChaosConfig {
  /** Probability 0..1 of a request accepted and never answered (held until the client gives up or `hangMs` passes). */
  rateHang: number;
  /** Longest hold of a hung connection, in ms. */
  hangMs: number;
  /** Probability 0..1 of a gateway's 5xx page (HTML or a gateway's JSON) before the request is processed. */
  rateGateway: number;
  /** Probability 0..1 that the answer is cut short after half its body and the connection closed. */
  rateTruncate: number;
  /** Probability 0..1 that the connection is reset after half the answer's body. */
  rateResetBody: number;
  /** Probability 0..1 that a JSON answer arrives well framed with only the first half of its body (Content-Length fixed to match), as from a proxy that rewrites bodies. */
  rateMangle: number;
  /** Probability 0..1 of a 429 before the request is processed. */
  rate429: number;
  /** Probability 0..1 that the connection is destroyed before any answer, before the request is processed. */
  rateReset: number;
  /** Extra latency added to every public answer, in ms. */
  delayMs: number;
  /** Seed of the deterministic generator (mulberry32): the same seed gives the same draws. */
  seed: number;
  /** Where the limiter sits: `app` (after authentication), `front` (a gateway before everything) or `both` (each at half the rates). */
  placement: 'app' | 'front' | 'both';
  /** Delay the 429s ask for, in s. */
  retryAfterSeconds: number;
}

/** Simulator configuration (control-api.md "Config keys and defaults", plus `faults`). */
export interface SimConfig {
  /** First model-B retry delay in ms; each later one doubles. */
  webhookRetryBaseMs: number;
  /** A delivery attempt with no answer after this many ms has failed. */
  webhookTimeoutMs: number;
  /** `"host:port"` → origin (e.g. `"http://127.0.0.1:5555"`): where deliveries for that host really go. */
  webhookConnectTo: Record<string, string>;
  /** Milliseconds after a call ends during which its insights answer 404. */
  insightsDelayMs: number;
  /** Per-tenant rate of `POST /calls/{id}/monitor-session` per minute before 429. */
  monitorMintsPerMinute: number;
  /** Monitor sessions open at once on one call. */
  monitorSlotsPerCall: number;
  /** Value of `metadata.version` (§2.1, §9.1). */
  version: string;
  /** Names of deliberate spec violations switched on (faults/index.ts). Added key, not in the contract. */
  faults: string[];
  /** Chaos injected into public answers (chaos.ts); null when off. Added key, not in the contract. */
  chaos: ChaosConfig | null;
  /** Reading of the spec the simulator takes where it leaves a choice (personality.ts). Added key, not in the contract. */
  personality: Personality;
}

/** Version string the simulator answers in `metadata.version` unless configured otherwise. */
export const SIMULATOR_VERSION = '1.0.0-simulator';

/** Fresh copy of the default config (control-api.md). */
export function defaultConfig(): SimConfig {
  return {
    webhookRetryBaseMs: 1000,
    webhookTimeoutMs: 5000,
    webhookConnectTo: {},
    insightsDelayMs: 0,
    monitorMintsPerMinute: 30,
    monitorSlotsPerCall: 2,
    version: SIMULATOR_VERSION,
    faults: [],
    chaos: null,
    personality: 'default',
  };
}
