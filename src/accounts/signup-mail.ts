import type { MailMessage } from '../core/mailer.js';
import { escapeHtml } from '../core/html.js';

const subjectSite = (siteName: string) => siteName.replace(/[\r\n]+/g, ' ').slice(0, 100);

/** The mail to a new address: the link that makes the account. Plain text first, every HTML value escaped. */
export function signupConfirmMail(input: { to: string; siteName: string; link: string; expiresAt: string }): MailMessage {
  const { to, siteName, link, expiresAt } = input;
  const subject = `Confirm your sign-up at ${subjectSite(siteName)}`;
  const text = [
    'Hello,',
    '',
    `Someone (hopefully you) signed up at ${siteName} with this e-mail address.`,
    '',
    'Open this link to create the account and sign in:',
    '',
    link,
    '',
    `The link works once and expires at ${expiresAt}.`,
    'If you did not sign up, ignore this e-mail: no account is made.',
    '',
  ].join('\n');
  const html = [
    '<!doctype html><html><body style="font-family:sans-serif;line-height:1.5">',
    '<p>Hello,</p>',
    `<p>Someone (hopefully you) signed up at ${escapeHtml(siteName)} with this e-mail address.</p>`,
    `<p><a href="${escapeHtml(link)}">Create the account</a></p>`,
    `<p>Or copy this link into your browser:<br>${escapeHtml(link)}</p>`,
    `<p>The link works once and expires at ${escapeHtml(expiresAt)}. If you did not sign up, ignore this e-mail.</p>`,
    '</body></html>',
  ].join('\n');
  return { to, subject, text, html };
}

/** The mail to an address that has an account already: the sign-up answer said nothing, this says it to the owner. */
export function signupExistingMail(input: { to: string; siteName: string; signinLink: string; resetLink: string }): MailMessage {
  const { to, siteName, signinLink, resetLink } = input;
  const subject = `Sign-up attempt with your address at ${subjectSite(siteName)}`;
  const text = [
    'Hello,',
    '',
    `Someone (perhaps you) tried to sign up at ${siteName} with this e-mail address, which already has an account there.`,
    'No new account was made and your account is unchanged.',
    '',
    `To use your account, sign in: ${signinLink}`,
    `Forgot the password? Reset it: ${resetLink}`,
    '',
    'If this was not you, you can ignore this e-mail.',
    '',
  ].join('\n');
  const html = [
    '<!doctype html><html><body style="font-family:sans-serif;line-height:1.5">',
    '<p>Hello,</p>',
    `<p>Someone (perhaps you) tried to sign up at ${escapeHtml(siteName)} with this e-mail address, which already has an account there. No new account was made and your account is unchanged.</p>`,
    `<p><a href="${escapeHtml(signinLink)}">Sign in</a> or, if you forgot the password, <a href="${escapeHtml(resetLink)}">reset it</a>.</p>`,
    '<p>If this was not you, you can ignore this e-mail.</p>',
    '</body></html>',
  ].join('\n');
  return { to, subject, text, html };
}

/**
 * The mail to the owner's address after an agent's sign-up (POST /agents/signup with confirmation
 * on): the link confirms the account and signs its opener in; the key's prefix lets the owner check
 * that the key is the one their agent holds.
 */
export function agentSignupConfirmMail(input: { to: string; siteName: string; link: string; expiresAt: string; keyPrefix: string }): MailMessage {
  const { to, siteName, link, expiresAt, keyPrefix } = input;
  const subject = `Confirm your agent's account at ${subjectSite(siteName)}`;
  const text = [
    'Hello,',
    '',
    `An agent signed up at ${siteName} and named this e-mail address as its owner's.`,
    `Its API key starts with ${keyPrefix}; the key works once you confirm.`,
    '',
    'Open this link to confirm the account (you are signed in to it on the web, too):',
    '',
    link,
    '',
    `The link works once and expires at ${expiresAt}.`,
    'If you did not ask an agent to sign up, or the key prefix is not the one your agent shows, ignore this e-mail: the key never works.',
    '',
  ].join('\n');
  const html = [
    '<!doctype html><html><body style="font-family:sans-serif;line-height:1.5">',
    '<p>Hello,</p>',
    `<p>An agent signed up at ${escapeHtml(siteName)} and named this e-mail address as its owner's. Its API key starts with <code>${escapeHtml(keyPrefix)}</code>; the key works once you confirm.</p>`,
    `<p><a href="${escapeHtml(link)}">Confirm the account</a></p>`,
    `<p>Or copy this link into your browser:<br>${escapeHtml(link)}</p>`,
    `<p>The link works once and expires at ${escapeHtml(expiresAt)}. If you did not ask an agent to sign up, or the key prefix is not the one your agent shows, ignore this e-mail: the key never works.</p>`,
    '</body></html>',
  ].join('\n');
  return { to, subject, text, html };
}
