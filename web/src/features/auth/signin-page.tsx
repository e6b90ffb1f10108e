import { PageHeader } from '../../ui/controls';

// Placeholder until this page is built.
export default function SignInPage() {
  return <PageHeader title="SignInPage" />;
}
