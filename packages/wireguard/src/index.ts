export * from './config-parse.js';
export * from './config-render.js';
export * from './ip.js';
export * from './keys.js';
