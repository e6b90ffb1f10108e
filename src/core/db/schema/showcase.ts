/** One people's choice vote (since 0221). */
export interface VotesTable {
  event_id: string;
  project_id: string;
  user_id: string;
  /** The track id when votes are counted per track, else '' (one pool per event). */
  scope: string;
  /** 1..votes_per_person: which of the voter's votes in this scope this is. */
  slot: number;
  created_at: string;
}

export interface PeoplesChoiceTable {
  event_id: string;
  position: number;
  rank: number;
  project_id: string;
  project_name: string;
  team_name: string;
  track_id: string | null;
  votes: number;
}
