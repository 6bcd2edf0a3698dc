import type { ExportFile } from '../../shared/contract';
import { utcTime } from '../engine/exports/file-state';
import { sizeText } from '../engine/exports/retention-policy';
import { deleteExport, listExports, retentionState, setRetention } from '../engine/handlers/exports';
import { type Command, parseCommandArgs, printUsage, runSubcommand, UsageError } from './command';
import { withExistingDataDir } from './open-data-dir';

// `skein exports list|delete|retention` (issue 13 point 18): the finished data files, deleting
// one (the job and its charges stay; its URL answers 410), and the retention setting the server
// applies (at start, hourly, after each job). Works beside a running app: the setting is in the
// database, and `retention` applies a new setting at once, here. A refused value (an unknown job,
// a running one, days below 1, a size that is not a number) is the engine's message, exit code 1.

export const exportsCommand: Command = {
  name: 'exports',
  summary: 'List finished data files, delete one (the job and ledger stay), or set how long they are kept: exports list | delete | retention.',
  usage:
    'skein exports list [--json] [--data-dir DIR]\n' +
    '       skein exports delete JOB_ID [--json] [--data-dir DIR]\n' +
    '       skein exports retention [--keep all | --days N | --gb N] [--dry-run] [--json] [--data-dir DIR]\n' +
    '         (1 GB = 1024 MB; --gb keeps the newest files within N GB, deleting the oldest first)',
  run(argv) {
    return Promise.resolve(runSubcommand(this, argv, { list: listCmd, delete: deleteCmd, retention: retentionCmd }));
  },
};

function stateText(f: ExportFile): string {
  if (f.file_state === 'deleted') return `deleted ${f.deleted_ms === null ? '' : utcTime(f.deleted_ms)} (${f.deleted_by === 'retention' ? 'retention' : 'by you'})`;
  return f.file_state === 'missing' ? 'missing from the folder' : 'kept';
}

function listCmd(argv: string[]): number {
  const { values, dataDir, help } = parseCommandArgs(argv, { json: { type: 'boolean' } });
  if (help) return printUsage(exportsCommand);
  return withExistingDataDir(dataDir, (engine) => {
    const files = listExports(engine, null);
    const state = retentionState(engine);
    if (values.json) {
      console.log(JSON.stringify({ retention: state, files }, null, 2));
      return 0;
    }
    console.log(`${state.files} ${state.files === 1 ? 'file' : 'files'} kept, ${sizeText(state.bytes)}; retention: ${state.policy_text}.`);
    if (!files.length) console.log('No finished data files yet.');
    const width = Math.max(0, ...files.map((f) => sizeText(f.bytes).length));
    for (const f of files) {
      console.log(`job ${String(f.job_id).padStart(5)}  ${sizeText(f.bytes).padStart(width)}  finished ${utcTime(f.finished_ms)}  ${f.file_name}  ${stateText(f)}`);
    }
    return 0;
  });
}

function deleteCmd(argv: string[]): number {
  const { values, positionals, dataDir, help } = parseCommandArgs(argv, { json: { type: 'boolean' } }, true);
  if (help) return printUsage(exportsCommand);
  if (positionals.length !== 1) throw new UsageError('give one JOB_ID (skein exports list shows them).');
  return withExistingDataDir(dataDir, (engine) => {
    const deleted = deleteExport(engine, { job_id: positionals[0] });
    if (values.json) console.log(JSON.stringify(deleted, null, 2));
    else console.log(`Deleted ${deleted.file_name} (job ${deleted.job_id}): ${sizeText(deleted.bytes)} freed. The job and its charges stay; its data file URL now answers 410 Gone.`);
    return 0;
  });
}

function retentionCmd(argv: string[]): number {
  const { values, dataDir, help } = parseCommandArgs(argv, {
    keep: { type: 'string' },
    days: { type: 'string' },
    gb: { type: 'string' },
    'dry-run': { type: 'boolean' },
    json: { type: 'boolean' },
  });
  if (help) return printUsage(exportsCommand);
  const given = ['keep', 'days', 'gb'].filter((k) => values[k] !== undefined);
  return withExistingDataDir(dataDir, (engine) => {
    if (!given.length) {
      if (values['dry-run']) throw new UsageError('--dry-run goes with --keep all, --days N or --gb N.');
      const state = retentionState(engine);
      if (values.json) console.log(JSON.stringify(state, null, 2));
      else console.log(`Retention: ${state.policy_text}. ${state.files} ${state.files === 1 ? 'file' : 'files'} kept, ${sizeText(state.bytes)}.`);
      return 0;
    }
    const keep = (values.keep as string | undefined) ?? (values.days !== undefined ? 'days' : 'gb');
    const result = setRetention(engine, { keep, days: values.days, gb: values.gb, dry_run: values['dry-run'] === true }, () => undefined);
    if (values.json) {
      console.log(JSON.stringify(result, null, 2));
      return 0;
    }
    const freed = sizeText(result.deleted.reduce((s, d) => s + d.bytes, 0));
    const what = result.deleted.map((d) => `  job ${d.job_id}  ${d.file_name}`);
    if (result.dry_run) {
      console.log(result.deleted.length ? `Setting this would delete ${result.deleted.length} ${result.deleted.length === 1 ? 'file' : 'files'} now (${freed}):` : 'Setting this would delete no file now.');
    } else {
      console.log(`Retention: ${result.state.policy_text}.${result.deleted.length ? ` Deleted ${result.deleted.length} ${result.deleted.length === 1 ? 'file' : 'files'} now (${freed}); the jobs and their charges stay:` : ' No file is due now.'}`);
    }
    for (const line of what) console.log(line);
    for (const s of result.skipped) console.log(`  left for the next sweep: ${s.file_name} (job ${s.job_id}): ${s.why}`);
    if (!result.dry_run) console.log(`${result.state.files} ${result.state.files === 1 ? 'file' : 'files'} kept, ${sizeText(result.state.bytes)}. The server applies this at start, hourly and after each job.`);
    return 0;
  });
}
