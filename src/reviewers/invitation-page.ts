import { randomBytes } from 'node:crypto';
import type { App, AppContext } from '../app-context.js';
import { AppError, titleOf } from '../core/errors.js';
import { escapeHtml } from './html.js';
import { TokenParams } from './reviewers-schemas.js';

export type InvitationPageState =
  | { kind: 'pending'; eventId: string; eventName: string; email: string; accountExists: boolean; expiresAt: string }
  | { kind: 'unavailable'; title: string; detail: string };

export interface InvitationPageInput {
  state: InvitationPageState;
  /** Where the form posts (the accept endpoint of this token). */
  acceptUrl: string;
  /** {site_url}/api/v1, for the usage hint shown with the key. */
  apiBase: string;
  nonce: string;
}

/**
 * The page an invitation link opens: a sign-in / sign-up form that posts to the accept endpoint and
 * shows the API key it returns. Every value is escaped into HTML; the script reads its inputs from
 * the DOM and writes results with textContent only, under a nonce-based Content-Security-Policy.
 */
export function renderInvitationPage(input: InvitationPageInput): string {
  const { state, acceptUrl, apiBase, nonce } = input;
  const head = (title: string) =>
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">` +
    `<meta name="referrer" content="no-referrer"><title>${escapeHtml(title)}</title>` +
    `<style>body{font-family:system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem;line-height:1.5}` +
    `label{display:block;margin:.8rem 0 .2rem}input{width:100%;padding:.4rem;box-sizing:border-box}button{margin-top:1rem;padding:.5rem 1rem}` +
    `code,pre{background:#f3f3f3;padding:.2rem .4rem;word-break:break-all;white-space:pre-wrap}#out{color:#a00}</style></head><body>`;
  if (state.kind === 'unavailable') {
    return `${head(state.title)}<h1>${escapeHtml(state.title)}</h1><p>${escapeHtml(state.detail)}</p></body></html>`;
  }
  const e = escapeHtml;
  const passwordHint = state.accountExists
    ? 'An account exists for this address: enter its password.'
    : 'No account exists for this address yet: choose a password (at least 8 characters) to create it.';
  return (
    `${head(`Review ${state.eventName}`)}` +
    `<h1>Review “${e(state.eventName)}”</h1>` +
    `<p>This invitation is for <strong>${e(state.email)}</strong> and expires at ${e(state.expiresAt)}.</p>` +
    `<form id="accept" data-action="${e(acceptUrl)}" data-api="${e(apiBase)}" data-event="${e(state.eventId)}">` +
    `<p>${e(passwordHint)}</p>` +
    `<label for="email">E-mail</label><input id="email" name="email" type="email" value="${e(state.email)}" readonly>` +
    `<label for="password">Password</label><input id="password" name="password" type="password" required minlength="${state.accountExists ? 1 : 8}" autocomplete="${state.accountExists ? 'current-password' : 'new-password'}">` +
    `<button type="submit">${state.accountExists ? 'Sign in and accept' : 'Create account and accept'}</button>` +
    `<p id="out" role="alert"></p></form>` +
    `<noscript><p>This page needs JavaScript, or accept with: POST ${e(acceptUrl)} {"password": "…"}</p></noscript>` +
    `<div id="done" hidden><h2>You are a reviewer now</h2>` +
    `<div id="new-key"><p>Your review API key, shown only this once; store it now:</p><pre id="key"></pre></div>` +
    `<p id="held-key" hidden></p>` +
    `<p>Your projects to review:</p><pre id="usage"></pre></div>` +
    `<script nonce="${e(nonce)}">
const f = document.getElementById('accept');
f.addEventListener('submit', async (ev) => {
  ev.preventDefault();
  const out = document.getElementById('out');
  out.textContent = 'Working…';
  try {
    const res = await fetch(f.dataset.action, {
      method: 'POST',
      // The password is the credential here: a web-app session cookie would make this a CSRF-checked session request.
      credentials: 'omit',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: f.email.value, password: f.password.value }),
    });
    const data = await res.json().catch(() => ({}));
    if (!res.ok) { out.textContent = data.detail || data.title || ('Error ' + res.status); return; }
    f.hidden = true;
    let key = '<your review key>';
    if (data.api_key) {
      key = data.api_key.key;
      document.getElementById('key').textContent = key;
    } else {
      document.getElementById('new-key').hidden = true;
      const held = document.getElementById('held-key');
      held.textContent = 'You already hold a review API key (' + data.existing_key.prefix + '…); it now works for this event too. ' +
        'Lost it? Ask the organizer for a new invitation and accept it with "replace_key": true.';
      held.hidden = false;
    }
    document.getElementById('usage').textContent =
      'curl -H "Authorization: Bearer ' + key + '" ' + f.dataset.api + '/events/' + data.event_id + '/review-assignments';
    document.getElementById('done').hidden = false;
  } catch (err) {
    out.textContent = 'Network error: ' + err.message;
  }
});
</script></body></html>`
  );
}

/** `GET {site_url}/invitations/:token`: the browser page behind the e-mailed link. */
export function invitationPageRoutes(ctx: AppContext) {
  const { reviewers, config } = ctx;
  return async function plugin(app: App) {
    app.get(
      '/invitations/:token',
      { config: { reviewKeyAllowed: true }, schema: { hide: true, params: TokenParams } as never },
      async (request, reply) => {
        const { token } = request.params as { token: string };
        const nonce = randomBytes(16).toString('base64');
        let state: InvitationPageState;
        let status = 200;
        try {
          const inv = await reviewers.describeInvitation(token);
          state = {
            kind: 'pending',
            eventId: inv.event_id,
            eventName: inv.event_name,
            email: inv.email,
            accountExists: inv.account_exists,
            expiresAt: inv.expires_at,
          };
        } catch (err) {
          if (!(err instanceof AppError) || (err.status !== 404 && err.status !== 410)) throw err;
          status = err.status;
          // The error's own title and detail: "Invitation closed — the event … has ended …" etc.
          state = { kind: 'unavailable', title: titleOf(err.code), detail: err.message };
        }
        const html = renderInvitationPage({
          state,
          // Relative, so the form posts to the origin the page came from (and works under a path prefix).
          acceptUrl: `../api/v1/invitations/${encodeURIComponent(token)}/accept`,
          apiBase: `${config.publicUrl}/api/v1`,
          nonce,
        });
        return reply
          .status(status)
          .header('content-type', 'text/html; charset=utf-8')
          .header('cache-control', 'no-store')
          .header('referrer-policy', 'no-referrer')
          .header('x-content-type-options', 'nosniff')
          .header('x-frame-options', 'DENY')
          .header(
            'content-security-policy',
            `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'unsafe-inline'; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'`,
          )
          .send(html);
      },
    );
  };
}
