import { createApiClient } from '@palisade/api-client';

/** The console's one client: same origin, cookie session. `unwrap` drops nulls from every body. */
export const api = createApiClient();
