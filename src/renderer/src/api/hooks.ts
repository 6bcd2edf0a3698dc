import {
  type InfiniteData,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
  type UseQueryOptions,
} from '@tanstack/react-query';
import type { HandlerArgs, HandlerName, HandlerResult, TimelinePage } from '../../../shared/contract';
import type { EngineError } from './errors';
import { call } from './transport';

type QueryOpts<K extends HandlerName> = Omit<UseQueryOptions<HandlerResult<K>, EngineError>, 'queryKey' | 'queryFn'>;

/** Engine data for a view: cached under [name, args], refetched on invalidation by events. */
export function useSkein<K extends HandlerName>(name: K, args: HandlerArgs<K>, options: QueryOpts<K> = {}) {
  return useQuery<HandlerResult<K>, EngineError>({
    queryKey: [name, args ?? null],
    queryFn: () => call(name, args),
    ...options,
  });
}

/** A cursor-paged list (timelines, search): pages of 20 fetched on scroll. */
export function useSkeinPages<K extends 'timeline.page' | 'search.page'>(
  name: K,
  args: Omit<HandlerArgs<K>, 'cursor'>,
  enabled: boolean,
) {
  return useInfiniteQuery<TimelinePage, EngineError, InfiniteData<TimelinePage>, unknown[], string | null>({
    queryKey: [name, args],
    queryFn: ({ pageParam }) => call(name, { ...args, cursor: pageParam } as HandlerArgs<K>) as Promise<TimelinePage>,
    initialPageParam: null,
    getNextPageParam: (last) => (last.next_cursor && last.tweets.length > 0 ? last.next_cursor : undefined),
    enabled,
    // Loaded pages stay as they are: a refetch would reload every page and move the list under the reader.
    staleTime: Infinity,
    retry: false,
  });
}

/** A change through the engine; afterwards the named queries are refetched. */
export function useSkeinMutation<K extends HandlerName>(name: K, invalidates: HandlerName[] = []) {
  const client = useQueryClient();
  return useMutation<HandlerResult<K>, EngineError, HandlerArgs<K>>({
    mutationFn: (args) => call(name, args),
    onSettled: () => Promise.all(invalidates.map((n) => client.invalidateQueries({ queryKey: [n] }))),
  });
}
