import { defineMessages } from '../../i18n/messages';

/** The words of the announcements on the team page, English and Simplified Chinese. */
export const messages = defineMessages({
  en: {
    title: 'Announcements',
    from: 'From the organizers, {{when}}',
  },
  'zh-CN': {
    title: '通知',
    from: '主办方发布于 {{when}}',
  },
});
