/**
 * A late runner on purpose, for the own-clock rehearsal (test/integration/own-clock.test.ts):
 * preloaded into every process of a nested conformance run with
 * `NODE_OPTIONS=--import <this file's URL>?ms=400`, it blocks the process's event loop for `ms`
 * milliseconds inside each time window the suite opens (helpers/checks/clock.ts publishes
 * `core-api:time-window-opened`), as a busy CI machine would, where it hurt most: as the window's
 * first answer arrives (undici's `undici:request:headers`), before the test reads it and sends what
 * comes next — a call's end confirmed, then the insights read leaving 400 ms later than the test
 * believes; a mint answered, then the next one. A window with no answer within a second is
 * blocked then. The first block of a process prints `late-runner: blocking <pid> …`, so the
 * rehearsal can tell the runner was made late (a process that opens no window prints nothing).
 */
import { subscribe } from 'node:diagnostics_channel';
import { performance } from 'node:perf_hooks';

const ms = Number(new URL(import.meta.url).searchParams.get('ms') ?? 0);
/** The window opened and not yet blocked, with the timer that blocks it when no answer comes. */
let armed;
let blocks = 0;

/** Blocks this thread for `ms`: a busy event loop. */
function block() {
  if (!armed) return;
  clearTimeout(armed);
  armed = undefined;
  const end = performance.now() + ms;
  while (performance.now() < end);
  blocks += 1;
  if (blocks === 1) process.stderr.write(`late-runner: blocking ${process.pid} for ${ms} ms inside each time window\n`);
}

if (ms > 0) {
  subscribe('core-api:time-window-opened', () => {
    clearTimeout(armed);
    armed = setTimeout(block, 1_000);
  });
  subscribe('undici:request:headers', block);
}
