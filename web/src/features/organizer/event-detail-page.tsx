import { PageHeader } from '../../ui/controls';

// Placeholder until this page is built.
export default function EventDetailPage() {
  return <PageHeader title="EventDetailPage" />;
}
