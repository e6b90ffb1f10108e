import { PageHeader } from '../../ui/controls';

// Placeholder until this page is built.
export default function OrganizerEventsPage() {
  return <PageHeader title="OrganizerEventsPage" />;
}
