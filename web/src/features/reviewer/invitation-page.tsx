import { PageHeader } from '../../ui/controls';

// Placeholder until this page is built.
export default function InvitationPage() {
  return <PageHeader title="InvitationPage" />;
}
