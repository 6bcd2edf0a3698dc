import { createReadStream, fstatSync, openSync, closeSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import type { Engine } from '../../engine/engine';
import { fail } from '../errors';
import { contentTypes } from '../../engine/jobs/writers/formats';
import type { JobRow } from '../../engine/jobs';
import { APP_USER_ID } from '../../engine/handlers/app-user';
import { downloadStarted } from '../../engine/exports/downloads';
import { dataFilePath, deletedMessage } from '../../engine/exports/file-state';

// GET /datafiles/<token>/<file name>: a job's data file, like a pre-signed storage URL. The token
// (24 random bytes) is the capability: no key is needed, so plain curl and pandas.read_csv(url)
// work, while the job's user holds a key that is not revoked. The host check still applies
// (loopback only). Not a spec route: not metered. A file deleted in Exports or by the retention
// setting answers 410 Gone, saying when and how to get the rows again (docs/decisions.md).

const TOKEN = /^[0-9a-f]{48}$/;

export function registerDatafileRoutes(app: FastifyInstance, engine: Engine): void {
  app.get('/datafiles/:token/:name', async (request, reply) => {
    const { token, name } = request.params as { token: string; name: string };
    const job = TOKEN.test(token)
      ? (engine.db.prepare(`SELECT * FROM jobs WHERE datafile_token = ? AND status = 'success'`).get(token) as JobRow | undefined)
      : undefined;
    // Same answer for a wrong token and a wrong name: nothing to learn by guessing.
    if (!job || job.result_file !== name) throw fail.notFound('No such data file.');
    // A file's URL lives as long as its user holds a key that is not revoked (docs/decisions.md):
    // revoking a user's last key revokes the URLs handed out to them. The app's own jobs have none.
    if (job.user_id !== APP_USER_ID && !engine.db.prepare('SELECT 1 FROM api_keys WHERE user_id = ? AND revoked_at_ms IS NULL LIMIT 1').get(job.user_id)) {
      throw fail.notFound(`This data file's URL was revoked with its user's API keys; the file of job ${job.id} is still in the exports folder (the app's Exports).`);
    }
    if (typeof job.file_deleted_at_ms === 'number') throw fail.gone(deletedMessage(job));
    // Opened before the answer starts: a delete after this point leaves the open file readable to
    // its end (POSIX unlink; libuv opens with FILE_SHARE_DELETE on Windows).
    let fd: number;
    let size: number;
    try {
      fd = openSync(dataFilePath(engine.dataDir, job), 'r');
    } catch {
      throw fail.notFound(`The data file of job ${job.id} is no longer in the exports folder.`);
    }
    try {
      size = fstatSync(fd).size;
    } catch (err) {
      closeSync(fd);
      throw err;
    }
    // The retention sweep leaves a file alone while it is being sent (exports/downloads.ts).
    const ended = downloadStarted(engine.db, job.id);
    const stream = createReadStream('', { fd, autoClose: true });
    stream.once('close', ended);
    reply.raw.once('close', ended);
    const type = job.is_compressed ? contentTypes.zip : contentTypes[job.output_format];
    return reply
      .header('content-type', type)
      .header('content-length', String(size))
      .header('content-disposition', `attachment; filename="${job.result_file}"`)
      .header('cache-control', 'private, no-store')
      .header('referrer-policy', 'no-referrer')
      .header('x-content-type-options', 'nosniff')
      .send(stream);
  });
}
