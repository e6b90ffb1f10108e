import { messages as admin } from '../features/admin/messages';
import { messages as audit } from '../features/audit/messages';
import { messages as auth } from '../features/auth/messages';
import { messages as keys } from '../features/keys/messages';
import { formMessages as organizerForm } from '../features/organizer/form-messages';
import { messages as organizer } from '../features/organizer/messages';
import { messages as participant } from '../features/participant/messages';
import { messages as publicPages } from '../features/public/messages';
import { messages as teamResult } from '../features/participant/team-result-messages';
import { messages as reviewer } from '../features/reviewer/messages';
import { messages as showcase } from '../features/showcase/messages';
import { messages as webhooks } from '../features/webhooks/messages';
import { common } from './common';
import type { MessageBundle } from './messages';

/** Every namespace, for the completeness test (pages load their own namespace with their chunk). */
export const ALL_MESSAGES: Record<string, MessageBundle> = {
  common,
  public: publicPages,
  auth,
  keys,
  admin,
  audit,
  organizer,
  'organizer-form': organizerForm,
  reviewer,
  showcase,
  'team-result': teamResult,
  webhooks,
  participant,
};
