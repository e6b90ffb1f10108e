import { escapeHtml } from '../core/html.js';
import { formatInZone, linkMail, subjectPart, type MailLanguage } from '../core/mail-format.js';
import type { MailMessage } from '../core/mailer.js';

/**
 * The account mails (sign-up, an agent's sign-up, an address already in use, password reset), in
 * the reader's language with times in their zone: a person who never opened their settings has the
 * language and time zone their browser sent at sign-up (UTC and English when nothing was sent).
 */
export interface Reader {
  to: string;
  siteName: string;
  language: MailLanguage;
  timeZone: string;
}

const COPY = { en: 'Or copy this link into your browser:', zh: '或将此链接复制到浏览器中打开：' } as const;

/** The mail to a new address: the link that makes the account. */
export function signupConfirmMail(r: Reader & { link: string; expiresAt: string }): MailMessage {
  const expires = formatInZone(r.expiresAt, r.timeZone, r.language);
  if (r.language === 'zh') {
    return linkMail({
      to: r.to,
      subject: `确认你在 ${subjectPart(r.siteName)} 的注册`,
      greeting: '你好：',
      before: [`有人（希望是你）用这个邮箱地址在 ${r.siteName} 注册。`, '打开下面的链接即可创建账号并登录：'],
      link: { label: '创建账号', url: r.link, copyHint: COPY.zh },
      after: [`链接只能使用一次，${expires} 失效。`, '如果不是你本人注册，请忽略这封邮件：不会创建任何账号。'],
    });
  }
  return linkMail({
    to: r.to,
    subject: `Confirm your sign-up at ${subjectPart(r.siteName)}`,
    greeting: 'Hello,',
    before: [`Someone (hopefully you) signed up at ${r.siteName} with this e-mail address.`, 'Open this link to create the account and sign in:'],
    link: { label: 'Create the account', url: r.link, copyHint: COPY.en },
    after: [`The link works once and expires ${expires}.`, 'If you did not sign up, ignore this e-mail: no account is made.'],
  });
}

/** The mail to an address that has an account already: the sign-up answer said nothing, this says it to the owner. */
export function signupExistingMail(r: Reader & { signinLink: string; resetLink: string }): MailMessage {
  if (r.language === 'zh') {
    return linkMail({
      to: r.to,
      subject: `有人用你的邮箱地址在 ${subjectPart(r.siteName)} 注册`,
      greeting: '你好：',
      before: [`有人（也许是你）用这个邮箱地址在 ${r.siteName} 注册，但这个地址已经有账号了。没有创建新账号，你的账号也没有任何改动。`],
      link: { label: '登录', url: r.signinLink, copyHint: COPY.zh },
      after: [`忘记密码？在这里重设：${r.resetLink}`, '如果不是你，请忽略这封邮件。'],
    });
  }
  return linkMail({
    to: r.to,
    subject: `Sign-up attempt with your address at ${subjectPart(r.siteName)}`,
    greeting: 'Hello,',
    before: [
      `Someone (perhaps you) tried to sign up at ${r.siteName} with this e-mail address, which already has an account there. No new account was made and your account is unchanged.`,
    ],
    link: { label: 'Sign in', url: r.signinLink, copyHint: COPY.en },
    after: [`Forgot the password? Reset it: ${r.resetLink}`, 'If this was not you, you can ignore this e-mail.'],
  });
}

/**
 * The mail to the owner's address after an agent's sign-up (POST /agents/signup with confirmation
 * on): the link confirms the account and signs its opener in; the key's prefix lets the owner check
 * that the key is the one their agent holds.
 */
export function agentSignupConfirmMail(r: Reader & { link: string; expiresAt: string; keyPrefix: string }): MailMessage {
  const expires = formatInZone(r.expiresAt, r.timeZone, r.language);
  const prefix = `<code>${escapeHtml(r.keyPrefix)}</code>`;
  if (r.language === 'zh') {
    const first = `一个智能体在 ${r.siteName} 注册，并把这个邮箱地址填为其主人的地址。`;
    const second = `它的 API 密钥以 ${r.keyPrefix} 开头；你确认之后这个密钥才能使用。`;
    return linkMail({
      to: r.to,
      subject: `确认你的智能体在 ${subjectPart(r.siteName)} 的账号`,
      greeting: '你好：',
      before: [first, second, '打开下面的链接确认账号（同时会在网页上登录这个账号）：'],
      htmlBefore: [
        escapeHtml(first),
        `它的 API 密钥以 ${prefix} 开头；你确认之后这个密钥才能使用。`,
        escapeHtml('打开下面的链接确认账号（同时会在网页上登录这个账号）：'),
      ],
      link: { label: '确认账号', url: r.link, copyHint: COPY.zh },
      after: [`链接只能使用一次，${expires} 失效。`, '如果你没有让智能体注册，或者密钥前缀与你的智能体显示的不一致，请忽略这封邮件：这个密钥永远不会生效。'],
    });
  }
  const first = `An agent signed up at ${r.siteName} and named this e-mail address as its owner's.`;
  return linkMail({
    to: r.to,
    subject: `Confirm your agent's account at ${subjectPart(r.siteName)}`,
    greeting: 'Hello,',
    before: [
      first,
      `Its API key starts with ${r.keyPrefix}; the key works once you confirm.`,
      'Open this link to confirm the account (you are signed in to it on the web, too):',
    ],
    htmlBefore: [
      escapeHtml(first),
      `Its API key starts with ${prefix}; the key works once you confirm.`,
      escapeHtml('Open this link to confirm the account (you are signed in to it on the web, too):'),
    ],
    link: { label: 'Confirm the account', url: r.link, copyHint: COPY.en },
    after: [
      `The link works once and expires ${expires}.`,
      'If you did not ask an agent to sign up, or the key prefix is not the one your agent shows, ignore this e-mail: the key never works.',
    ],
  });
}

/** The password-reset mail. */
export function passwordResetMail(r: Reader & { link: string; expiresAt: string }): MailMessage {
  const expires = formatInZone(r.expiresAt, r.timeZone, r.language);
  if (r.language === 'zh') {
    return linkMail({
      to: r.to,
      subject: `重设你在 ${subjectPart(r.siteName)} 的密码`,
      greeting: '你好：',
      before: [`有人（希望是你）请求重设你在 ${r.siteName} 的账号密码。`, '打开下面的链接设置新密码：'],
      link: { label: '设置新密码', url: r.link, copyHint: COPY.zh },
      after: [`链接只能使用一次，${expires} 失效。`, '如果不是你本人请求，请忽略这封邮件：你的密码保持不变。'],
    });
  }
  return linkMail({
    to: r.to,
    subject: `Reset your password for ${subjectPart(r.siteName)}`,
    greeting: 'Hello,',
    before: [`Someone (hopefully you) asked to reset the password of your account at ${r.siteName}.`, 'Open this link to choose a new password:'],
    link: { label: 'Choose a new password', url: r.link, copyHint: COPY.en },
    after: [`The link works once and expires ${expires}.`, 'If you did not ask for this, ignore this e-mail: your password stays as it is.'],
  });
}
