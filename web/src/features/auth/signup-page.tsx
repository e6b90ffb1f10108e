import { PageHeader } from '../../ui/controls';

// Placeholder until this page is built.
export default function SignUpPage() {
  return <PageHeader title="SignUpPage" />;
}
