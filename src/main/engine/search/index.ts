// The search capability's public surface; see README.md for the contract.
export type { QueryNode, OperatorName, FilterName, Span } from './ast';
export { parseQuery, MAX_DEPTH, MAX_TERMS } from './parser';
export { MAX_QUERY_LENGTH } from './lexer';
export { SearchSyntaxError, type SyntaxErrorInfo } from './syntax-error';
export { compileQuery, type CompiledQuery, type CompileOptions, type DriverKind } from './compile';
export { searchPage, countMatches, pageSql, MAX_PAGE_SIZE, TOP_SCORE_SQL, type SearchRequest, type SearchPage } from './page';
export { encodeKeyset, decodeKeyset, type Keyset, type SearchType } from './cursor';
export { checkSearchRequest, readSearch, SEARCH_PAGE_SIZE, type SearchResultsPage } from './read';
export { sealSearchCursor, openSearchCursor } from './sealed-cursor';
export { repliesPage, repliesPageSql, countReplies, type RepliesRequest } from './replies';
