// `npm test`: every check in one run, in the order a failure is cheapest to read: typecheck, lint,
// build, unit and integration tests (vitest), end-to-end tests in Chromium against headless mode.
// Every step runs even when an earlier one failed, so one run shows everything that is wrong; the
// last line is the summary ("tests: N passed, N failed").
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { binOf, root } from './lib.mjs';

const only = process.argv.slice(2); // e.g. `npm test -- unit e2e` runs just those steps
const results = [];
mkdirSync(join(root, 'test-results'), { recursive: true });

function step(name, script, args, { countsFrom } = {}) {
  if (only.length && !only.includes(name)) return;
  console.log(`\n=== ${name}: ${[script.split('/').slice(-3).join('/'), ...args].join(' ')}`);
  if (countsFrom) rmSync(countsFrom, { force: true });
  const started = Date.now();
  const r = spawnSync(process.execPath, [script, ...args], { stdio: 'inherit', cwd: root, env: { ...process.env, FORCE_COLOR: '0' } });
  const ok = r.status === 0;
  let passed = ok ? 1 : 0;
  let failed = ok ? 0 : 1;
  if (countsFrom && existsSync(countsFrom)) {
    const report = JSON.parse(readFileSync(countsFrom, 'utf8'));
    passed = report.numPassedTests;
    failed = report.numFailedTests + (ok ? 0 : report.numFailedTests === 0 ? 1 : 0);
  }
  results.push({ name, ok, passed, failed, seconds: Math.round((Date.now() - started) / 1000) });
}

const tsc = binOf('typescript', 'tsc');
const vitest = binOf('vitest');
step('typecheck-node', tsc, ['-p', 'tsconfig.node.json', '--noEmit']);
step('typecheck-web', tsc, ['-p', 'tsconfig.web.json', '--noEmit']);
step('lint', binOf('eslint'), ['--max-warnings', '0', '.']);
step('build', binOf('electron-vite'), ['build']);
const unitReport = join(root, 'test-results', 'vitest.json');
step('unit', vitest, ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${unitReport}`], { countsFrom: unitReport });
const e2eReport = join(root, 'test-results', 'e2e.json');
step('e2e', vitest, ['run', '--config', 'vitest.e2e.config.mts', '--reporter=default', '--reporter=json', `--outputFile.json=${e2eReport}`], { countsFrom: e2eReport });

console.log('\n=== summary');
for (const r of results) console.log(`${r.ok ? 'ok  ' : 'FAIL'}  ${r.name.padEnd(15)} ${String(r.passed).padStart(5)} passed ${String(r.failed).padStart(4)} failed  ${r.seconds} s`);
const passed = results.reduce((n, r) => n + r.passed, 0);
const failed = results.reduce((n, r) => n + r.failed, 0);
const allOk = results.every((r) => r.ok);
console.log(`tests: ${passed} passed, ${failed} failed`);
process.exit(allOk && failed === 0 ? 0 : 1);
