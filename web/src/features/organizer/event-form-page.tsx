import { PageHeader } from '../../ui/controls';

// Placeholder until this page is built.
export default function EventFormPage() {
  return <PageHeader title="EventFormPage" />;
}
