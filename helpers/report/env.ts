/**
 * Environment variables the report code reads (listed in docs/configuration.md).
 */

/** Folder all run output goes to (default `reports`); read by vitest.config.ts and the reporter. */
export const REPORT_DIR_VAR = 'CONFORMANCE_REPORT_DIR';

/** Path of a baseline run record (`conformance.json`) the reporter compares the run with. */
export const BASELINE_VAR = 'CONFORMANCE_BASELINE';

/** Base URL of the spec document for links in reports and Allure (default: a relative path). */
export const SPEC_URL_VAR = 'CONFORMANCE_SPEC_URL';

/** `0` leaves Allure results out of a run (`npm run test:quick` does); anything else, or unset, writes them. */
export const ALLURE_VAR = 'CONFORMANCE_ALLURE';
