/**
 * One reading of a request's path for every decision the simulator takes on it: the router
 * (find-my-way) percent-decodes the path before it matches a route, so the control-path decision
 * must read the same decoded path, or `/%5f_control/reset` would be routed to the control API
 * while the public auth hook still took it for a public route.
 */
import { seam } from './seam.ts';

/** The path of a request URL without query or fragment, percent-decoded as the router decodes it (undecodable input is kept as sent). */
export function routePath(url: string | undefined): string {
  if (!url) return '';
  const cut = url.search(/[?#]/);
  const raw = cut === -1 ? url : url.slice(0, cut);
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/** True when the decoded path is `/__control` or below it. */
function isControlRoute(url: string | undefined): boolean {
  const p = routePath(url);
  return p === '/__control' || p.startsWith('/__control/');
}

/**
 * §7 (path spellings agree): whether a request URL is for the control API, read from the decoded
 * path as the router reads it ({@link isControlRoute}).
 */
export const controlPathReading = seam('routes.control-path', (url: string | undefined): boolean => isControlRoute(url));

/** §9.2: every route of §4 is served at the root path (no version prefix): whether `method` `path` is served there. */
export const servedAtRoot = seam('routes.root-path', (_method: string, _path: string): boolean => true);

/**
 * §4 "Content-Type: application/json": whether a body sent under `contentType` (the header as
 * sent, or undefined) is read as JSON. The simulator reads every body as JSON, so a media type
 * with parameters or in another letter case (RFC 9110 §8.3.1) is the same body.
 */
export const readsBodyAsJson = seam('body.media-type', (_contentType: string | undefined): boolean => true);

/** §4.1: the request body the handlers see: the parsed JSON value as sent (a handler refuses a non-object itself). */
export const parsedBody = seam('body.parsed', (parsed: unknown): unknown => parsed);
