import { PageHeader } from '../../ui/controls';

// Placeholder until this page is built.
export default function ResultPage() {
  return <PageHeader title="ResultPage" />;
}
