export * from './identity.js';
