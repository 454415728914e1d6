/**
 * The requirement suffix of the informational check in which a value-space test
 * (suites/value-space.test.ts) records the classes it tried for its field
 * (`<operation> <field>: value classes tried`); the Markdown report (helpers/report/markdown.ts)
 * lists them. A module of its own, so the report reads it without loading the generators.
 */
export const VALUE_CLASSES_TRIED = 'value classes tried';
