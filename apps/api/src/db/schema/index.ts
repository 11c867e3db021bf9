export * from './identity.js';
export * from './networks.js';
export * from './gateways.js';
export * from './events.js';
export * from './mfa.js';
export * from './mail.js';
export * from './mfa-keys.js';
export * from './vpn-sessions.js';
