import { QueryClient, QueryClientProvider, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useConnection } from './api/connection';
import { useEngineEvents } from './api/events';
import { Layout } from './components/Layout';
import { useRoute } from './router';
import { HomeView } from './views/home/HomeView';
import { TimelineView } from './views/timeline/TimelineView';
import { PostView } from './views/post/PostView';
import { ArticleView } from './views/article/ArticleView';
import { SpaceView } from './views/space/SpaceView';
import { SearchView } from './views/search/SearchView';
import { OverviewView } from './views/overview/OverviewView';
import { JobsView } from './views/jobs/JobsView';
import { ExportsView } from './views/exports/ExportsView';
import { SettingsView } from './views/settings/SettingsView';
import { Empty } from './components/States';
import { WindowDrop } from './components/WindowDrop';
import { TableBenchView } from './views/dev/TableBenchView';
import { useDocumentTitle } from './document-title';
import { useTimeZone } from './stores/time-zone';

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // Local data: no refetch storms on focus; a failed call is shown, not retried three times
      // (the engine is on this machine: a failure is its answer, not a network blip).
      refetchOnWindowFocus: false,
      retry: false,
      staleTime: 30_000,
    },
  },
});

function NoSuchPage() {
  useDocumentTitle('No such page');
  return <Empty title="No such page">Use the sections on the left.</Empty>;
}

function Routes() {
  useEngineEvents();
  const { parts } = useRoute();
  const [section = '', id] = parts;
  switch (section) {
    case '':
      return <HomeView />;
    case 'timeline':
      return <TimelineView />;
    case 'post':
      return <PostView id={id ?? ''} />;
    case 'article':
      return <ArticleView id={id ?? ''} />;
    case 'space':
      return <SpaceView id={id ?? ''} />;
    case 'search':
      return <SearchView />;
    case 'overview':
      return <OverviewView />;
    case 'jobs':
      return <JobsView />;
    case 'exports':
      return <ExportsView />;
    case 'settings':
      return <SettingsView />;
    case 'dev':
      return id === 'table' ? <TableBenchView /> : <NoSuchPage />;
    default:
      return <NoSuchPage />;
  }
}

/** After the server came back (a restart, headless mode), every view asks again: events were missed meanwhile. */
function RefreshOnReconnect() {
  const reconnections = useConnection((s) => s.reconnections);
  const client = useQueryClient();
  useEffect(() => {
    if (reconnections > 0) void client.invalidateQueries();
  }, [reconnections, client]);
  return null;
}

export function App() {
  // Dates are formatted during render: a change of the time-zone setting re-renders every view.
  const zone = useTimeZone((s) => s.zone);
  return (
    <QueryClientProvider client={queryClient}>
      <Layout>
        <Routes key={zone} />
      </Layout>
      <WindowDrop />
      <RefreshOnReconnect />
    </QueryClientProvider>
  );
}
