import { PageHeader } from '../../components/Layout';
import { useDocumentTitle } from '../../document-title';
import { RemoteImagesSection } from './RemoteImagesSection';
import { CsvDialectSection } from './CsvDialectSection';
import { TimeZoneSection } from './TimeZoneSection';
import { SourcesSection } from './SourcesSection';
import { DataSection } from './DataSection';
import { KeysSection } from './KeysSection';
import { UsersSection } from './UsersSection';
import { WebhookSection } from './WebhookSection';

export function SettingsView() {
  useDocumentTitle('Settings');
  return (
    <div className="view settings">
      <PageHeader title="Settings" subtitle="Where data comes from, keys for your scripts, credits and limits, webhooks, and your data." />
      <SourcesSection />
      <KeysSection />
      <UsersSection />
      <WebhookSection />
      <DataSection />
      <CsvDialectSection />
      <TimeZoneSection />
      <RemoteImagesSection />
    </div>
  );
}
