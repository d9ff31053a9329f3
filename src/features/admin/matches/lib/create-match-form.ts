/**
 * The create-match form's values (team ids as the selects hold them, the date and the time of day apart)
 * and the match they ask for. Same teams, or a date and time that do not make an instant, are refused
 * with a toast before anything is sent.
 */
import { z } from 'zod';
import { LONG_TEXT, MATCH_TYPES } from '@/domain/limits.ts';
import { messages } from '@/domain/messages.ts';
import type { CreateMatchBody } from '../api/create-match.ts';
import { combineDateAndTime, timeOfDay } from './match-time.ts';

export const createMatchFormSchema = z.object({
  team1_id: z.string().min(1, messages.team1Required),
  team2_id: z.string().min(1, messages.team2Required),
  match_type: z.enum(MATCH_TYPES),
  date: z.string().min(1, messages.matchDateRequired),
  time: z.string().regex(/^\d{2}:\d{2}$/, 'Please enter a valid time'),
  venue: z.string().trim().max(LONG_TEXT, `Venue must be at most ${LONG_TEXT} characters`),
});
export type CreateMatchValues = z.infer<typeof createMatchFormSchema>;

/** A T20 from now's time of day, teams and date still to choose. */
export function newMatchDefaults(now: Date): CreateMatchValues {
  return { team1_id: '', team2_id: '', match_type: 't20', date: '', time: timeOfDay(now), venue: '' };
}

const [sameTeamsTitle, sameTeamsDescription] = messages.sameTeams.split(': ');

/** The match to send, or the toast that says why there is none. */
export function newMatchFrom(
  values: CreateMatchValues,
): { body: CreateMatchBody } | { refusal: { title: string; description?: string } } {
  if (values.team1_id === values.team2_id)
    return { refusal: { title: sameTeamsTitle, description: sameTeamsDescription } };
  const startTime = combineDateAndTime(values.date, values.time);
  if (!startTime) return { refusal: { title: messages.matchDateRequired } };
  const { match_type, venue, team1_id, team2_id } = values;
  return {
    body: {
      match_type,
      venue,
      team1_id: Number(team1_id),
      team2_id: Number(team2_id),
      start_time: startTime,
    },
  };
}
