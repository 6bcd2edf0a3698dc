import { rmSync } from 'node:fs';
import { isoMicros } from '../../serialize/timestamps';
import type { Db } from '../../store/db';
import { GEXF_SLICE_US, type GexfSlice } from '../params';
import { attachScratch, buildGraph, countsOf, detachScratch, edgeRows, nodeRows, scratchSchema, type EdgeRow, type NodeRow } from './gexf-graph';
import { xmlAttr, XmlFile, xmlText } from './xml-file';

// GEXF 1.3 (issue 16; output_format=gexf, our extension) for Gephi: the users of a job's rows as
// nodes, replies, mentions, quotes and retweets between them as directed edges (gexf-graph.ts has
// the model), written element by element from SQL rows.
//
// - Nodes: id = the user id (text; '@' + screen name for a mentioned account known by name only),
//   label = the screen name. Attributes: screen_name, name, followers_count, statuses_count (long;
//   only for accounts whose profile the corpus holds), posts (integer: the rows of this file the
//   account wrote, 0 for an account that is only a target), in_corpus (boolean).
// - Edges: kind (GEXF 1.3's edge kind: reply, mention, quote, retweet; Gephi keeps edges of
//   different kinds between two users apart), weight = the number of posts, first_at and last_at
//   (ISO 8601, UTC, microseconds). Edge ids are unique and every edge's ends are nodes, so Gephi
//   imports it without an issue.
// - gexf_dynamic (hour, day, week): the graph is dynamic (timeformat dateTime, UTC); each edge has
//   a spell per slice in which it happened and its count there as the dynamic weight (an edge
//   attribute with the reserved id "weight", which Gephi reads as the edge's weight over time).
//   Slices end 1 ms before the next begins: Gephi refuses intervals that touch. Nodes have no
//   spells: an account is in the network for the whole file.

export interface GexfOptions {
  jobId: number;
  slice: GexfSlice | null;
  /** One line for <meta><description>: what the job collected. */
  description: string;
  /** <meta lastmodifieddate>: when the file was made. */
  date: Date;
}

const NODE_ATTRIBUTES = [
  ['screen_name', 'string'],
  ['name', 'string'],
  ['followers_count', 'long'],
  ['statuses_count', 'long'],
  ['posts', 'integer'],
  ['in_corpus', 'boolean'],
] as const;

/** A time as xsd:dateTime in UTC to the millisecond (what Gephi parses). */
const dateTimeMs = (us: bigint): string => new Date(Number(us / 1000n)).toISOString();

function nodeXml(n: NodeRow): string {
  const known = n.screen_name !== null && n.incomplete === 0;
  const screenName = n.screen_name || n.hint_sn || '';
  const name = n.name || n.hint_name || '';
  const values: [string, string][] = [];
  if (screenName) values.push(['screen_name', screenName]);
  if (name) values.push(['name', name]);
  if (known) values.push(['followers_count', String(n.followers_count)], ['statuses_count', String(n.statuses_count)]);
  values.push(['posts', String(n.posts)], ['in_corpus', String(known)]);
  const label = screenName || n.key;
  return (
    `<node id="${xmlAttr(n.key)}" label="${xmlAttr(label)}"><attvalues>` +
    values.map(([k, v]) => `<attvalue for="${k}" value="${xmlAttr(v)}"/>`).join('') +
    '</attvalues></node>\n'
  );
}

function edgeOpen(e: EdgeRow): string {
  return (
    `<edge id="${e.id}" source="${xmlAttr(e.source)}" target="${xmlAttr(e.target)}" kind="${e.kind}" weight="${e.weight}"><attvalues>` +
    `<attvalue for="first_at" value="${isoMicros(e.first_us)}"/><attvalue for="last_at" value="${isoMicros(e.last_us)}"/>`
  );
}

function writeEdges(out: XmlFile, db: Db, schema: string, slice: GexfSlice | null, sliceUs: bigint): void {
  if (!slice) {
    for (const e of edgeRows(db, schema, false)) out.write(`${edgeOpen(e)}</attvalues></edge>\n`);
    return;
  }
  // One row per (edge, slice), in edge order: an edge's weights go in <attvalues>, its spells
  // after them, so the spells are kept until the edge ends (a handful per edge).
  let current: EdgeRow | null = null;
  let spells = '';
  const close = (): void => {
    if (current) out.write(`</attvalues><spells>${spells}</spells></edge>\n`);
  };
  for (const e of edgeRows(db, schema, true)) {
    if (current?.id !== e.id) {
      close();
      current = e;
      spells = '';
      out.write(edgeOpen(e));
    }
    const start = dateTimeMs(e.slice_us!);
    const end = dateTimeMs(e.slice_us! + sliceUs - 1000n);
    out.write(`<attvalue for="weight" value="${e.n}" start="${start}" end="${end}"/>`);
    spells += `<spell start="${start}" end="${end}"/>`;
  }
  close();
}

/**
 * Writes the GEXF file of the staged post ids to `outPath`, building the graph in the scratch
 * database at `scratchPath` (removed at the end). Idempotent: every run starts from the staged ids.
 */
export async function writeGexf(db: Db, stagedPath: string, outPath: string, scratchPath: string, options: GexfOptions): Promise<{ nodes: number; edges: number }> {
  rmSync(scratchPath, { force: true });
  rmSync(outPath, { force: true });
  const schema = scratchSchema(options.jobId);
  attachScratch(db, schema, scratchPath);
  let out: XmlFile | null = null;
  try {
    await buildGraph(db, schema, stagedPath, options.slice);
    const counts = countsOf(db, schema);
    out = new XmlFile(outPath);
    const dynamic = options.slice !== null;
    out.write('<?xml version="1.0" encoding="UTF-8"?>\n<gexf xmlns="http://gexf.net/1.3" version="1.3">\n');
    out.write(`<meta lastmodifieddate="${options.date.toISOString().slice(0, 10)}"><creator>Skein</creator>`);
    out.write(`<description>${xmlText(options.description)}</description></meta>\n`);
    // idtype string: ids are 19 digits, past what a reader taking them as numbers keeps exact.
    out.write(`<graph defaultedgetype="directed" idtype="string" ${dynamic ? 'mode="dynamic" timeformat="dateTime" timezone="UTC"' : 'mode="static"'}>\n`);
    out.write('<attributes class="node" mode="static">\n');
    for (const [id, type] of NODE_ATTRIBUTES) out.write(`<attribute id="${id}" title="${id}" type="${type}"/>\n`);
    out.write('</attributes>\n<attributes class="edge" mode="static">\n');
    out.write('<attribute id="first_at" title="first_at" type="string"/>\n<attribute id="last_at" title="last_at" type="string"/>\n</attributes>\n');
    if (dynamic) out.write('<attributes class="edge" mode="dynamic">\n<attribute id="weight" title="weight" type="double"/>\n</attributes>\n');
    out.write(`<nodes count="${counts.nodes}">\n`);
    for (const n of nodeRows(db, schema)) out.write(nodeXml(n));
    out.write(`</nodes>\n<edges count="${counts.edges}">\n`);
    writeEdges(out, db, schema, options.slice, dynamic ? BigInt(GEXF_SLICE_US[options.slice!]) : 0n);
    out.write('</edges>\n</graph>\n</gexf>\n');
    out.finish();
    return { nodes: counts.nodes, edges: counts.edges };
  } finally {
    out?.close();
    detachScratch(db, schema);
    rmSync(scratchPath, { force: true });
  }
}

