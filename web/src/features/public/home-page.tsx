import { PageHeader } from '../../ui/controls';

// Placeholder until this page is built.
export default function HomePage() {
  return <PageHeader title="HomePage" />;
}
