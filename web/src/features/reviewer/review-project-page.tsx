import { PageHeader } from '../../ui/controls';

// Placeholder until this page is built.
export default function ReviewProjectPage() {
  return <PageHeader title="ReviewProjectPage" />;
}
