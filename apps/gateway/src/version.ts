import pkg from '../package.json' with { type: 'json' };

/** The agent version reported in the hello (from package.json, so it cannot drift). */
export const AGENT_VERSION: string = pkg.version;
