export * from './identity.js';
export * from './networks.js';
