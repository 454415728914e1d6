import { writeFileSync } from 'node:fs';
import { generateBoundsCases, materializeCase } from './helpers/generate/bounds';
const t0 = performance.now();
const cases = generateBoundsCases();
const ms = performance.now() - t0;
const out = process.argv[2];
writeFileSync(out, JSON.stringify({ cases, materialized: cases.map((c) => materializeCase(c, { publicHost: 'h.example' })) }, null, 1));
console.log(cases.length, 'cases', ms.toFixed(0), 'ms');
