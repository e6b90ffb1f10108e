import { PageHeader } from '../../ui/controls';

// Placeholder until this page is built.
export default function ReviewProjectsPage() {
  return <PageHeader title="ReviewProjectsPage" />;
}
