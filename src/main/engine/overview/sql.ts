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
 * query, port and a leading `www.` cut off, one subquery a step so each expression stays small.
 */
export function domainsFrom(urls: string): string {
  const rest = "CASE WHEN instr(url, '://') > 0 THEN substr(url, instr(url, '://') + 3) ELSE url END";
  return (
    `(SELECT post_id, CASE WHEN substr(h, 1, 4) = 'www.' THEN substr(h, 5) ELSE h END AS domain FROM ` +
    `(SELECT post_id, ${before('c', ':')} AS h FROM ` +
    `(SELECT post_id, ${before('b', '?')} AS c FROM ` +
    `(SELECT post_id, ${before('a', '/')} AS b FROM ` +
    `(SELECT post_id, ${rest} AS a FROM ${urls})))))`
  );
}
