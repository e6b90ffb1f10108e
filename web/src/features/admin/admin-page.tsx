import { PageHeader } from '../../ui/controls';

// Placeholder until this page is built.
export default function AdminPage() {
  return <PageHeader title="AdminPage" />;
}
