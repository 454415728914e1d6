/**
 * Stand-alone vitest config for the simulator's own tests (no project reporters), for simulator
 * authors: `npx vitest run --config simulator/vitest.sim.config.ts`. The project's root config
 * also runs these files in its `unit` project.
 */
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['simulator/test/**/*.test.ts'],
    root: new URL('..', import.meta.url).pathname,
    testTimeout: 30_000,
  },
});
