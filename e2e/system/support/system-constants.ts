export const SYSTEM_PORT = 8911;
