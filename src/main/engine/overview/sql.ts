// SQL expressions of the overview's groups, over plain columns (no JavaScript per row).

/** `<a href="...">Client</a>` -> `Client`; a source without a link stays as it is. */
export function clientSql(column: string): string {
  const open = `instr(${column}, '>')`;
  const close = `instr(${column}, '</a>')`;
  return `CASE WHEN ${open} > 0 AND ${close} > ${open} THEN substr(${column}, ${open} + 1, ${close} - ${open} - 1) ELSE ${column} END`;
}

/** Text before the first `ch` (all of it when there is none). */
function before(expr: string, ch: string): string {
  return `CASE WHEN instr(${expr}, '${ch}') > 0 THEN substr(${expr}, 1, instr(${expr}, '${ch}') - 1) ELSE ${expr} END`;
}

/**
 * Post ids and the host of each linked URL (post_urls holds them lower-cased): the scheme, path,
 * query, port and a leading `www.` cut off, one step a common table expression. MATERIALIZED keeps
 * each step a step: flattened, every step's expression would be written out into the next, each
 * reading its input three times, so the first step ran 3^4 = 81 times a URL (at 1M posts, 192 ms
 * for the 10,625 links of `not`'s 98,433 posts). `urls` is a SELECT of (post_id, url).
 */
export function domainsWith(urls: string): string {
  const rest = "CASE WHEN instr(url, '://') > 0 THEN substr(url, instr(url, '://') + 3) ELSE url END";
  return (
    `WITH d0 AS MATERIALIZED (SELECT post_id, ${rest} AS a FROM (${urls})), ` +
    `d1 AS MATERIALIZED (SELECT post_id, ${before('a', '/')} AS b FROM d0), ` +
    `d2 AS MATERIALIZED (SELECT post_id, ${before('b', '?')} AS c FROM d1), ` +
    `d3 AS MATERIALIZED (SELECT post_id, ${before('c', ':')} AS h FROM d2), ` +
    `domains AS (SELECT post_id, CASE WHEN substr(h, 1, 4) = 'www.' THEN substr(h, 5) ELSE h END AS domain FROM d3) `
  );
}
