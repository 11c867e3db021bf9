import { ProblemSchema } from '@palisade/contracts';

/** Problem responses for the given statuses, for each route's response map (and OpenAPI). */
export function problems<const S extends number>(...statuses: S[]): Record<S, typeof ProblemSchema> {
  return Object.fromEntries(statuses.map((s) => [s, ProblemSchema])) as Record<S, typeof ProblemSchema>;
}

export const APP_VERSION = '0.1.0';
