import type Provider from 'oidc-provider';
import type { Db } from '#src/db/client.js';
import { findUserBySub, subOfUser } from './accounts.repo.js';
import { findGrantId } from './provider.repo.js';

export type Interaction = InstanceType<Provider['Interaction']>;

const epoch = () => Math.floor(Date.now() / 1000);

/** The scopes the app asked for (already limited by the provider to what the app may get). */
export function requestedScopes(interaction: Interaction): string[] {
  const scope = interaction.params.scope;
  return typeof scope === 'string' ? scope.split(' ').filter(Boolean) : [];
}

/**
 * The app asked to see the sign-in or consent page again (`prompt=login`, `prompt=consent`,
 * `max_age`): no shortcut through an earlier grant or an open console session.
 */
export function promptForced(interaction: Interaction): { login: boolean; any: boolean } {
  const prompts = String(interaction.params.prompt ?? '').split(' ');
  const login = prompts.includes('login') || interaction.params.max_age !== undefined;
  return { login, any: login || prompts.includes('consent') };
}

/** Whether the user's earlier grant to this app covers every scope it asks for now. */
export async function alreadyGranted(provider: Provider, db: Db, sub: string, interaction: Interaction): Promise<string | undefined> {
  const grantId = await findGrantId(db, sub, String(interaction.params.client_id));
  if (!grantId) return undefined;
  const grant = await provider.Grant.find(grantId);
  if (!grant) return undefined;
  const granted = new Set((grant.getOIDCScope() ?? '').split(' '));
  return requestedScopes(interaction).every((s) => s === 'offline_access' || granted.has(s)) ? grantId : undefined;
}

/** The console session an interaction finishes with: its user, and whether its sign-in passed MFA. */
export interface ConsoleSession {
  userId: number;
  mfaPassed: boolean;
}

/**
 * Records the console user's sign-in and consent on the interaction; resolves to the provider's
 * resume URL. `amr` says `mfa` only when the console session's own sign-in passed the MFA step (a
 * session opened with the password before the user turned MFA on does not).
 */
export async function finishInteraction(
  provider: Provider,
  db: Db,
  interaction: Interaction,
  session: ConsoleSession,
): Promise<{ url: string; sub: string; scopes: string[] } | undefined> {
  const sub = await subOfUser(db, session.userId);
  const user = sub ? await findUserBySub(db, sub) : undefined;
  if (!sub || !user?.isActive) return undefined;
  const clientId = String(interaction.params.client_id);
  const existing = await findGrantId(db, sub, clientId);
  const grant = (existing ? await provider.Grant.find(existing) : undefined) ?? new provider.Grant({ accountId: sub, clientId });
  const scopes = requestedScopes(interaction);
  if (scopes.length) grant.addOIDCScope(scopes.join(' '));
  const details = interaction.prompt.details as { missingOIDCClaims?: string[] };
  if (details.missingOIDCClaims?.length) grant.addOIDCClaims(details.missingOIDCClaims);
  const grantId = await grant.save();
  interaction.result = {
    login: { accountId: sub, amr: session.mfaPassed ? ['pwd', 'mfa'] : ['pwd'], remember: true },
    consent: { grantId },
  };
  await interaction.save(Math.max(interaction.exp - epoch(), 1));
  return { url: interaction.returnTo, sub, scopes };
}

/** Cancel on the consent page: the app gets `access_denied`. */
export async function denyInteraction(interaction: Interaction): Promise<string> {
  interaction.result = { error: 'access_denied', error_description: 'End-User aborted interaction' };
  await interaction.save(Math.max(interaction.exp - epoch(), 1));
  return interaction.returnTo;
}
