import { createReadStream, createWriteStream } from 'node:fs';
import { Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { TEXT_COLUMNS } from './csv';

// The excel CSV dialect from the plain one: a BOM in front, an apostrophe in front of every text
// cell that begins with = + - @ TAB CR (csv.ts). A CSV job stages its rows in the plain dialect
// (formats.ts: the staging of a format cannot depend on the job's dialect, since run-job.ts picks
// it by output_format alone); finalize.ts links that file as it is for `plain` and passes it
// through this transform for `excel`. One pass over the bytes, streaming in 1 MiB chunks: flat
// memory at any size (a million rows is about 700 MB).
//
// It reads only what csv.ts writes: a field that holds a comma, a quote, CR or LF is quoted, so an
// unquoted LF always ends a record and an unquoted CR is always the one before it. Idempotent: a
// file that already starts with a BOM gets no second one, and the apostrophe is not a guarded
// character, so a guarded cell is never guarded again (a CSV job staged by an older Skein, in the
// excel dialect, comes out unchanged).

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
const APOSTROPHE = Buffer.from("'");
const QUOTE = 0x22;
const COMMA = 0x2c;
const LF = 0x0a;
const CR = 0x0d;

/** Bytes that start a formula; CR only inside quotes (unquoted, it is the record's end). */
const GUARD_UNQUOTED = new Uint8Array(256);
for (const ch of '=+-@\t') GUARD_UNQUOTED[ch.charCodeAt(0)] = 1;
const GUARD_QUOTED = GUARD_UNQUOTED.slice();
GUARD_QUOTED[CR] = 1;

const enum State {
  /** At the first byte of a field. */
  FieldStart,
  /** Just after a field's opening quote: its first content byte comes next. */
  QuotedStart,
  Quoted,
  /** A quote inside a quoted field: a doubled quote, or the field's end. */
  QuoteInQuoted,
  Unquoted,
}

class ExcelGuard extends Transform {
  private state = State.FieldStart;
  private col = 0;
  /** The file's first bytes until there are 3 to compare with the BOM; null once decided. */
  private head: Buffer | null = Buffer.alloc(0);

  override _transform(input: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    let chunk = input;
    if (this.head) {
      chunk = Buffer.concat([this.head, input]);
      if (chunk.length < BOM.length) {
        this.head = chunk;
        return done();
      }
      this.head = null;
      if (!chunk.subarray(0, BOM.length).equals(BOM)) this.push(BOM);
    }
    this.scan(chunk);
    done();
  }

  override _flush(done: TransformCallback): void {
    if (this.head) {
      // Fewer than 3 bytes in all (a job's staged file always has its header): no BOM in them.
      this.push(BOM);
      this.scan(this.head);
    }
    done();
  }

  private scan(chunk: Buffer): void {
    let from = 0;
    let { state, col } = this;
    const guard = (i: number) => {
      if (TEXT_COLUMNS[col]) {
        this.push(chunk.subarray(from, i));
        this.push(APOSTROPHE);
        from = i;
      }
    };
    for (let i = 0; i < chunk.length; i++) {
      const b = chunk[i]!;
      switch (state) {
        case State.FieldStart:
          if (b === QUOTE) state = State.QuotedStart;
          else if (b === COMMA) col += 1;
          else if (b === LF) col = 0;
          else {
            if (GUARD_UNQUOTED[b]) guard(i);
            state = State.Unquoted;
          }
          break;
        case State.QuotedStart:
          if (b === QUOTE) state = State.QuoteInQuoted;
          else {
            if (GUARD_QUOTED[b]) guard(i);
            state = State.Quoted;
          }
          break;
        case State.Quoted: {
          // Most of a file is quoted text (a post's): jump to its next quote (memchr) instead of
          // looking at each byte.
          const q = b === QUOTE ? i : chunk.indexOf(QUOTE, i + 1);
          if (q === -1) i = chunk.length;
          else {
            i = q;
            state = State.QuoteInQuoted;
          }
          break;
        }
        case State.QuoteInQuoted:
          if (b === QUOTE) state = State.Quoted;
          else if (b === COMMA) {
            col += 1;
            state = State.FieldStart;
          } else if (b === LF) {
            col = 0;
            state = State.FieldStart;
          } else state = State.Unquoted; // the CR before LF
          break;
        case State.Unquoted:
          if (b === COMMA) {
            col += 1;
            state = State.FieldStart;
          } else if (b === LF) {
            col = 0;
            state = State.FieldStart;
          }
          break;
      }
    }
    this.state = state;
    this.col = col;
    this.push(chunk.subarray(from));
  }
}

/** Writes the excel dialect of the plain CSV at `plainPath` to `outPath`. */
export async function writeExcelCsvFromPlain(plainPath: string, outPath: string): Promise<void> {
  await pipeline(createReadStream(plainPath, { highWaterMark: 1 << 20 }), new ExcelGuard(), createWriteStream(outPath));
}

/** The same transform over text in memory (tests compare it with csv.ts's excel dialect). */
export async function excelCsvOf(plain: Buffer, chunkBytes = 1 << 20): Promise<Buffer> {
  const out: Buffer[] = [];
  const t = new ExcelGuard();
  t.on('data', (c: Buffer) => out.push(c));
  const ended = new Promise<void>((resolve, reject) => {
    t.on('end', resolve);
    t.on('error', reject);
  });
  for (let i = 0; i < plain.length; i += chunkBytes) t.write(plain.subarray(i, i + chunkBytes));
  t.end();
  await ended;
  return Buffer.concat(out);
}
