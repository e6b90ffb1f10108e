import { PageHeader } from '../../ui/controls';

// Placeholder until this page is built.
export default function ResetPasswordPage() {
  return <PageHeader title="ResetPasswordPage" />;
}
