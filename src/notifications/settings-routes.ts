import { principalOf, type App } from '../core/http/app-types.js';
import { problems } from '../core/http/schemas.js';
import { PatchSettingsBody, SettingsSchema } from './settings-schemas.js';
import type { SettingsService } from './settings-service.js';

export interface SettingsRoutesDeps {
  settings: SettingsService;
}

/** The caller's own person settings (session or API key). */
export function settingsRoutes(ctx: SettingsRoutesDeps) {
  const { settings } = ctx;
  return async function plugin(app: App) {
    app.get(
      '/me/settings',
      {
        config: { auth: true },
        schema: {
          tags: ['account'],
          summary: 'Your settings: display name, mail language and time zone, which notification mails you get',
          response: { 200: SettingsSchema },
        },
      },
      async (request) => settings.get(principalOf(request).userId),
    );
    app.patch(
      '/me/settings',
      {
        config: { auth: true },
        schema: {
          tags: ['account'],
          summary: 'Change your settings (only the fields sent); time_zone is an IANA name, null = UTC',
          body: PatchSettingsBody,
          response: { 200: SettingsSchema, ...problems('validation_failed') },
        },
      },
      async (request) => settings.update(principalOf(request).userId, request.body),
    );
  };
}
