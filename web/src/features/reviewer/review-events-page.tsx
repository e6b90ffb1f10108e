import { PageHeader } from '../../ui/controls';

// Placeholder until this page is built.
export default function ReviewEventsPage() {
  return <PageHeader title="ReviewEventsPage" />;
}
