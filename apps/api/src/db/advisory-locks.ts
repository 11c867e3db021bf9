/**
 * PostgreSQL advisory lock keys, in one place so no two mechanisms share a key by accident (one
 * would wait on, or skip because of, the other).
 */
export const ADVISORY_LOCKS = {
  /** Schema migrations at start-up (session lock). */
  migrations: 7_243_001,
  /** Changes that could remove the last active admin, and first-start bootstrap (transaction lock). */
  adminInvariant: 7_243_002,
  /** The gateway stats and change-log purge job: one replica at a time (transaction try-lock). */
  gatewayPurge: 7_243_003,
  /** The activity log retention purge: one replica at a time (session try-lock across its batches). */
  activityLogPurge: 7_243_010,
  /** The LDAP sync: one run at a time across API instances (session try-lock for the run). */
  ldapSync: 7_243_021,
  /** Directory sync runs (Google, Microsoft, Okta, JumpCloud): one at a time (session try-lock across the run). */
  directorySync: 7_243_020,
} as const;
