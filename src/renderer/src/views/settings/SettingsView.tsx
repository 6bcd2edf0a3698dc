import { PageHeader } from '../../components/Layout';
import { DataSection } from './DataSection';
import { KeysSection } from './KeysSection';
import { UsersSection } from './UsersSection';
import { WebhookSection } from './WebhookSection';

export function SettingsView() {
  return (
    <div className="view settings">
      <PageHeader title="Settings" subtitle="Keys for your scripts, credits and limits, webhooks, and your data." />
      <KeysSection />
      <UsersSection />
      <WebhookSection />
      <DataSection />
    </div>
  );
}
