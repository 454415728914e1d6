/**
 * Rehearses a GitHub Actions workflow of .github/workflows/ on this machine: its jobs in `needs`
 * order, each step as the YAML writes it (nothing is copied into the test), against whatever target
 * the given environment names (the embedded simulator when no CORE_API_BASE_URL is set).
 *
 * What a runner would do is mapped onto local stand-ins:
 * - `actions/checkout`, `actions/setup-node` and `npm ci`: the checkout is this one, already installed
 *   (the Node version of the matrix is not switched: the machine's Node runs every combination);
 * - the workspace's `reports/` folder is a fresh temporary folder (paths in commands and env are
 *   rewritten), so a rehearsal never touches the repository's own reports;
 * - `actions/upload-artifact` / `actions/download-artifact` (by name or pattern) copy folders in an
 *   artifact store of the rehearsal; `dawidd6/action-download-artifact` reads the store of an
 *   earlier rehearsal (the previous night), and finds nothing on the first;
 * - `$GITHUB_STEP_SUMMARY` is a file of the rehearsal;
 * - `${{ matrix.* }}`, `${{ inputs.* }}`, `${{ secrets.* }}`, `${{ vars.* }}` and `${{ github.token }}`
 *   are replaced (secrets and variables from the given maps, else empty); a matrix axis named `node`
 *   runs its first value only;
 * - a step's `if:` is honoured in the forms `${{ X == 'v' }}` and `${{ X != 'v' }}` (X a
 *   `secrets.`, `vars.` or `inputs.` name): an opt-in step, such as the webhook tunnel that would
 *   reach the internet, is skipped unless the rehearsal gives its variable. Any other form throws.
 *
 * A rehearsal proves a wiring with the smallest run that proves it: with `suiteFiles`, every
 * `npm run conformance` step runs those suite files only (they are appended to its command, so its
 * `--shard` splits them), and every `npm run gate` step gets `--allow-partial` (a run of some files
 * is partial, and the gate blocks a partial run: test/unit/partial-run.test.ts). With `oneShard`,
 * a job's `shard` matrix axis runs its first value only, and the conformance step runs every
 * narrowed file in that one shard (its `--shard=N/M` dropped): for the runs after the first night,
 * whose wiring (a baseline, the gate) the sharding does not change. Nothing else of the YAML changes.
 *
 * An `npm run <script> [-- args]` step runs the script's command from package.json the way npm
 * does (in bash, its program from node_modules/.bin, the words after `--` appended), without npm's
 * own start-up: ~0.4 s of CPU a step, over some twenty steps a rehearsal.
 */
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse } from 'yaml';
import { suiteFreeEnv } from '../../tools/mutation/run';
import { scratchDir } from '../support/scratch';

/** One step as it ran. */
export interface StepRun {
  job: string;
  /** The step's `run` command (after substitution) or `uses` action. */
  step: string;
  /** Exit code (0 for stand-in actions that succeeded). */
  code: number;
  output: string;
}

/** Options of {@link rehearse}. */
export interface RehearsalOptions {
  /** Extra environment for every step (e.g. an external simulator's CORE_API_BASE_URL and CORE_API_CONTROL_URL). */
  env?: Record<string, string>;
  /** Values of `${{ secrets.NAME }}`; absent ones are empty. */
  secrets?: Record<string, string>;
  /** Values of `${{ inputs.NAME }}`. */
  inputs?: Record<string, string>;
  /** Values of `${{ vars.NAME }}` (repository variables); absent ones are empty. */
  vars?: Record<string, string>;
  /** Artifact store of an earlier rehearsal (what `dawidd6/action-download-artifact` finds). */
  previous?: string;
  /**
   * Suite files (e.g. `suites/auth.test.ts`) every `npm run conformance` step runs instead of the
   * whole suite; the gate steps then get `--allow-partial` (module comment). Whole suite when absent.
   */
  suiteFiles?: string[];
  /** Run a `shard` matrix as one shard holding every file (module comment). */
  oneShard?: boolean;
}

/** What a rehearsal left: every step, the artifact store, the workspace's reports folder and the job summary. */
export interface Rehearsal {
  steps: StepRun[];
  /** Folder of artifacts by name. */
  artifacts: string;
  /** The rehearsal's stand-in for the workspace's `reports/`. */
  reports: string;
  /** Text written to `$GITHUB_STEP_SUMMARY`. */
  summary: string;
  /** Exit code of the job's last step that ran without continue-on-error (the job's verdict), per job. */
  jobCodes: Record<string, number>;
}

interface Step {
  run?: string;
  uses?: string;
  with?: Record<string, unknown>;
  'continue-on-error'?: boolean;
  name?: string;
  if?: string;
}

/**
 * Whether a step's `if:` holds, for the forms the module comment names.
 * @throws Error for any other form (the rehearsal would otherwise run a step a runner skips).
 */
function condition(expr: string | undefined, opts: RehearsalOptions): boolean {
  if (expr === undefined) return true;
  const m = /^\s*(?:\$\{\{)?\s*(secrets|vars|inputs)\.(\w+)\s*(==|!=)\s*'([^']*)'\s*(?:\}\})?\s*$/.exec(expr);
  if (!m) throw new Error(`rehearse: cannot evaluate if: ${expr}`);
  const [, scope, name, op, value] = m;
  const actual = (scope === 'secrets' ? opts.secrets : scope === 'vars' ? opts.vars : opts.inputs)?.[name] ?? '';
  return op === '==' ? actual === value : actual !== value;
}
interface Job {
  needs?: string | string[];
  env?: Record<string, string>;
  strategy?: { matrix?: Record<string, unknown[]> };
  steps: Step[];
}

/**
 * A step's command narrowed to {@link RehearsalOptions.suiteFiles}: the files appended to a
 * conformance run, `--allow-partial` to a gate. Other commands, or no files, unchanged.
 */
export function narrowed(step: string, suiteFiles: string[] | undefined, oneShard = false): string {
  const command = oneShard && /^npm run conformance\b/.test(step) ? step.replace(/\s--shard[= ]\d+\/\d+/, '') : step;
  if (!suiteFiles?.length) return command;
  // npm passes words after `--` to the script; a command without one gets it.
  const append = (words: string[]) => `${command}${/\s--(\s|$)/.test(command) ? '' : ' --'} ${words.join(' ')}`;
  if (/^npm run conformance\b/.test(command)) return append(suiteFiles);
  if (/^npm run gate\b/.test(command)) return append(['--allow-partial']);
  return command;
}

/** package.json's scripts, read once. */
let scripts: Record<string, string> | undefined;

/**
 * `npm run <name> [-- args]` as the script's own command with the arguments appended, as npm runs
 * it (the words after `--` quoted as the shell read them). Any other command unchanged.
 * @throws Error when package.json has no script of that name (npm would fail the step too).
 */
export function withoutNpm(command: string): string {
  const m = /^npm run ([\w:-]+)(?:\s+--)?(\s.*)?$/.exec(command.trim());
  if (!m) return command;
  scripts ??= (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> }).scripts;
  const script = scripts[m[1]];
  if (script === undefined) throw new Error(`package.json has no script ${m[1]} (step: ${command})`);
  // npm puts node_modules/.bin first on PATH: the script's program is found there.
  const [program, ...rest] = script.split(' ');
  const bin = resolve('node_modules/.bin', program);
  return `${existsSync(bin) ? [bin, ...rest].join(' ') : script}${m[2] ?? ''}`;
}

/** Runs a shell command to its end; answers its exit code and combined output (never rejects). */
function sh(command: string, env: Record<string, string>): Promise<{ code: number; output: string }> {
  return new Promise((done) => {
    const child = spawn('bash', ['-c', withoutNpm(command)], { cwd: resolve('.'), env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 600_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code: code ?? 1, output });
    });
    child.on('error', (e) => {
      clearTimeout(timer);
      done({ code: 1, output: e.message });
    });
  });
}

/** The combinations of a matrix (the `node` axis at its first value; the `shard` axis too with `oneShard`). */
function combinations(matrix: Record<string, unknown[]> | undefined, oneShard = false): Record<string, unknown>[] {
  let out: Record<string, unknown>[] = [{}];
  for (const [axis, values] of Object.entries(matrix ?? {})) {
    const vs = axis === 'node' || (oneShard && axis === 'shard') ? values.slice(0, 1) : values;
    out = out.flatMap((c) => vs.map((v) => ({ ...c, [axis]: v })));
  }
  return out;
}

/** Jobs in an order that respects `needs`. */
function order(jobs: Record<string, Job>): string[] {
  const done: string[] = [];
  const visit = (name: string) => {
    if (done.includes(name)) return;
    for (const n of [jobs[name].needs ?? []].flat()) visit(n);
    done.push(name);
  };
  Object.keys(jobs).forEach(visit);
  return done;
}

/**
 * Runs `workflow` (a path under .github/workflows/) step by step as described in the module comment.
 * Steps run as child processes without blocking this process's event loop (a simulator serving
 * the target may live in it). Never rejects for a failing step: the exit codes are the result.
 */
export async function rehearse(workflow: string, opts: RehearsalOptions = {}): Promise<Rehearsal> {
  const doc = parse(readFileSync(workflow, 'utf8')) as { jobs: Record<string, Job> };
  const root = scratchDir('rehearsal-');
  const reports = join(root, 'reports');
  const artifacts = join(root, 'artifacts');
  const summaryFile = join(root, 'step-summary.md');
  mkdirSync(reports, { recursive: true });
  mkdirSync(artifacts, { recursive: true });
  writeFileSync(summaryFile, '');
  const steps: StepRun[] = [];
  const jobCodes: Record<string, number> = {};

  for (const jobName of order(doc.jobs)) {
    const job = doc.jobs[jobName];
    const runCombination = async (matrix: Record<string, unknown>): Promise<StepRun[]> => {
      const steps: StepRun[] = [];
      const label = Object.keys(matrix).length ? `${jobName} ${JSON.stringify(matrix)}` : jobName;
      const sub = (text: string) =>
        text
          .replace(/\$\{\{\s*matrix\.(\w+)\s*\}\}/g, (_m, k) => String(matrix[k] ?? ''))
          .replace(/\$\{\{\s*inputs\.(\w+)\s*\}\}/g, (_m, k) => opts.inputs?.[k] ?? '')
          .replace(/\$\{\{\s*secrets\.(\w+)\s*\}\}/g, (_m, k) => opts.secrets?.[k] ?? '')
          .replace(/\$\{\{\s*vars\.(\w+)\s*\}\}/g, (_m, k) => opts.vars?.[k] ?? '')
          .replace(/\$\{\{\s*github\.token\s*\}\}/g, 'rehearsal-token')
          .replace(/(^|[\s'"=])reports\//g, `$1${reports}/`)
          .replace(/(^|[\s'"=])reports$/g, `$1${reports}`);
      const env = suiteFreeEnv();
      for (const [k, v] of Object.entries(job.env ?? {})) env[k] = sub(String(v));
      Object.assign(env, opts.env ?? {}, { GITHUB_STEP_SUMMARY: summaryFile, FORCE_COLOR: '0', NO_COLOR: '1' });
      // The report folder the workspace would use when a job sets none.
      env.CONFORMANCE_REPORT_DIR ??= reports;
      if (env.CONFORMANCE_REPORT_DIR.startsWith('reports')) env.CONFORMANCE_REPORT_DIR = join(root, env.CONFORMANCE_REPORT_DIR);
      let code = 0;
      for (const step of job.steps) {
        if (!condition(step.if, opts)) {
          steps.push({ job: label, step: step.name ?? step.run ?? step.uses ?? '', code: 0, output: `skipped: if ${step.if}` });
          continue;
        }
        const w = Object.fromEntries(Object.entries(step.with ?? {}).map(([k, v]) => [k, sub(String(v))]));
        let run: StepRun;
        if (step.uses) {
          run = { job: label, step: step.uses, code: 0, output: '' };
          if (step.uses.startsWith('actions/upload-artifact')) {
            cpSync(w.path, join(artifacts, w.name), { recursive: true });
          } else if (step.uses.startsWith('actions/download-artifact')) {
            mkdirSync(w.path, { recursive: true });
            if (w.name) {
              if (existsSync(join(artifacts, w.name))) cpSync(join(artifacts, w.name), w.path, { recursive: true });
              else if (opts.previous && existsSync(join(opts.previous, w.name))) cpSync(join(opts.previous, w.name), w.path, { recursive: true });
              else run = { ...run, code: 1, output: `no artifact ${w.name}` };
            } else {
              const re = new RegExp(`^${(w.pattern ?? '*').replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`);
              for (const a of readdirSync(artifacts).filter((n) => re.test(n))) cpSync(join(artifacts, a), join(w.path, a), { recursive: true });
            }
          } else if (step.uses.startsWith('dawidd6/action-download-artifact')) {
            if (opts.previous && existsSync(join(opts.previous, w.name))) cpSync(join(opts.previous, w.name), w.path, { recursive: true });
            else run = { ...run, output: `no artifact ${w.name} from an earlier run (if_no_artifact_found: ${w.if_no_artifact_found})` };
          }
        } else {
          const command = narrowed(sub(step.run ?? ''), opts.suiteFiles, opts.oneShard);
          if (/^npm ci\b/.test(command)) {
            run = { job: label, step: command, code: 0, output: 'skipped: the checkout is installed' };
          } else {
            const r = await sh(command, env);
            run = { job: label, step: command, code: r.code, output: r.output };
          }
        }
        steps.push(run);
        if (run.code !== 0 && !step['continue-on-error']) {
          code = run.code;
          break;
        }
        code = step['continue-on-error'] ? code : run.code;
      }
      jobCodes[label] = code;
      return steps;
    };
    // One combination after the other: side by side they would contend for this machine's cores
    // with the rest of the test run, and a rehearsal proves the steps, not the runner's parallelism.
    for (const matrix of combinations(job.strategy?.matrix, opts.oneShard)) steps.push(...(await runCombination(matrix)));
  }
  return { steps, artifacts, reports, summary: readFileSync(summaryFile, 'utf8'), jobCodes };
}
