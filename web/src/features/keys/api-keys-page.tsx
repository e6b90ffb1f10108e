import { PageHeader } from '../../ui/controls';

// Placeholder until this page is built.
export default function ApiKeysPage() {
  return <PageHeader title="ApiKeysPage" />;
}
