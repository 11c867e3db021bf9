export * from './access.js';
export * from './auth.js';
export * from './common.js';
export * from './errors.js';
export * from './groups.js';
export * from './settings.js';
export * from './users.js';
export * from './validation.js';
