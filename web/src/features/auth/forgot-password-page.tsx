import { PageHeader } from '../../ui/controls';

// Placeholder until this page is built.
export default function ForgotPasswordPage() {
  return <PageHeader title="ForgotPasswordPage" />;
}
