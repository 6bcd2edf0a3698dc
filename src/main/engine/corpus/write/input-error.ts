/**
 * A record a source gave that cannot be stored as it is (missing id, unreadable timestamp, an id
 * that already lost its digits). Importers catch it, report the file, line and this message, skip
 * the record and go on; the HTTP layer never sees it.
 */
export class CorpusInputError extends Error {
  override name = 'CorpusInputError';
  constructor(
    /** Dotted path of the offending field, e.g. `user.id_str`. */
    readonly field: string,
    why: string,
  ) {
    super(`${field}: ${why}`);
  }
}
