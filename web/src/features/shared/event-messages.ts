import { defineMessages } from '../../i18n/messages';

/** The words of the shared event parts (the not-found state of every event-scoped page), English and Simplified Chinese. */
export const messages = defineMessages({
  en: {
    notFoundTitle: 'Hackathon not found',
    notFound: 'There is no public hackathon at this address. It may be a draft or the link may be wrong.',
    backHome: 'See all hackathons',
  },
  'zh-CN': {
    notFoundTitle: '找不到这场黑客松',
    notFound: '此地址没有公开的黑客松。它可能仍是草稿，或链接有误。',
    backHome: '查看全部黑客松',
  },
});
