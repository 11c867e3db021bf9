import {
  CreateOAuthClientBodySchema,
  type OAuthClient,
  type OAuthScope,
  OAUTH_SCOPES,
  UpdateOAuthClientBodySchema,
} from '@palisade/contracts';
import type { MessageKey } from '@/i18n/en';
import type { FieldIssue, FieldIssues } from '@/lib/field-errors';

/** The add/edit form. `enabled` is set on creation only (afterwards the list's menu enables and disables). */
export type OpenIdAppFormValues = {
  name: string;
  redirect_uris: string[];
  scopes: OAuthScope[];
  public: boolean;
  enabled: boolean;
};

export const EMPTY_OPENID_APP: OpenIdAppFormValues = { name: '', redirect_uris: [''], scopes: ['openid'], public: false, enabled: true };

export const openIdAppFormValues = (app: OAuthClient | undefined): OpenIdAppFormValues =>
  app
    ? { name: app.name, redirect_uris: [...app.redirect_uris], scopes: [...app.scopes], public: app.public, enabled: app.enabled }
    : EMPTY_OPENID_APP;

/** The schema the API validates with (spec §5: name, valid redirect URIs, at least one scope). */
export const openIdAppSchema = (isNew: boolean) => (isNew ? CreateOAuthClientBodySchema : UpdateOAuthClientBodySchema);

/** The request body of the form (an edit sends no `enabled`). */
export function openIdAppBody(values: OpenIdAppFormValues, isNew: boolean): Record<string, unknown> {
  const { enabled, ...rest } = values;
  const scopes = OAUTH_SCOPES.filter((s) => values.scopes.includes(s));
  return isNew ? { ...rest, scopes, enabled } : { ...rest, scopes };
}

/** The issue of a list field as a whole (`redirect_uris`), or of its first item that has one. */
export function listIssue(errors: FieldIssues, name: string): FieldIssue | undefined {
  return errors[name] ?? Object.entries(errors).find(([path]) => path.startsWith(`${name}.`))?.[1];
}

export const scopeLabelKey = (scope: OAuthScope): MessageKey => `openidApps.scope.${scope}` as MessageKey;
