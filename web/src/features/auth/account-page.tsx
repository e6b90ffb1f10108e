import { PageHeader } from '../../ui/controls';

// Placeholder until this page is built.
export default function AccountPage() {
  return <PageHeader title="AccountPage" />;
}
