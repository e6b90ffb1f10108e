import { configHint, splitModelId, unconfiguredModels } from '../core/ai-models.js';
import type { AiConfig } from '../core/config.js';
import type { EventRecord } from './events-model.js';

/**
 * What an organizer should know about how the event will be judged, as sentences: shown with the
 * event to its organizers (the answers of create, update and GET). Empty when nothing needs saying.
 */
export function eventNotes(event: EventRecord, o: { ai: AiConfig; dimensionsDefaulted?: boolean }): string[] {
  const notes: string[] = [];
  if (event.models.length === 0) {
    notes.push(
      `No AI models: only human reviewers score this event. Invite reviewers (POST /api/v1/events/${event.id}/reviewers) before judging, ` +
        'or add a model while the event is not judging yet (GET /api/v1/models lists what this server can run).',
    );
  }
  for (const m of unconfiguredModels(o.ai, event.models)) {
    const { provider } = splitModelId(m);
    notes.push(`"${m}" cannot run on this server (provider "${provider}" is not configured: ${configHint(provider)}): its reviews will fail.`);
  }
  if (o.dimensionsDefaulted) {
    notes.push('No dimensions given: projects are scored on one dimension, "overall" (PATCH dimensions to change it before judging).');
  }
  return notes;
}
