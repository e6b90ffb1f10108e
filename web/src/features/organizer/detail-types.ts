import type { Answer, Item } from '../../lib/api';

/** The API shapes the organizer's event page reads: the route answers of the generated schema. */

export type EventDetail = Answer<'/events/{id}'>;
export type EventTrack = EventDetail['tracks'][number];

/** What every tab of the event page receives. */
export interface TabProps {
  event: EventDetail;
}

export type EventStats = Answer<'/events/{id}/stats'>;
export type ModelProgress = EventStats['reviews']['by_model'][number];
export type Registration = Item<'/events/{id}/registrations'>;
export type Project = Item<'/events/{id}/projects'>;
export type Review = Item<'/events/{id}/reviews'>;
export type LeaderboardEntry = Item<'/events/{id}/leaderboard'>;
export type ReviewersAnswer = Answer<'/events/{id}/reviewers'>;
export type Invitation = ReviewersAnswer['invitations'][number];
