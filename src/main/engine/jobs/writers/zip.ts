import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { ZipFile } from 'yazl';

/** Zips one file under `innerName`, streaming (yazl switches to ZIP64 past 4 GB by itself). */
export async function zipOneFile(sourcePath: string, innerName: string, outPath: string, mtime: Date): Promise<void> {
  const zip = new ZipFile();
  zip.addFile(sourcePath, innerName, { mtime, compress: true });
  zip.end();
  const out = createWriteStream(outPath);
  zip.outputStream.pipe(out);
  await once(out, 'close');
}
