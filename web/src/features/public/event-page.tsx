import { PageHeader } from '../../ui/controls';

// Placeholder until this page is built.
export default function EventPage() {
  return <PageHeader title="EventPage" />;
}
