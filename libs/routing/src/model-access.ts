import type { ModelAccessLists as ModelAccess } from './types';

export type AccessLevel = 'account' | 'organization' | 'project' | 'key';

/**
 * Model access is checked at account, organization, project and key level (spec:
 * Authentication 6). Returns the first level that forbids the model, or undefined.
 */
export function forbiddenAt(modelId: string, access: ModelAccess | null | undefined): AccessLevel | undefined {
  if (!access) return undefined;
  if (access.account_disabled?.includes(modelId)) return 'account';
  if (access.organization_disabled?.includes(modelId)) return 'organization';
  if (access.project_disabled?.includes(modelId)) return 'project';
  if (access.key_allowed && access.key_allowed.length > 0 && !access.key_allowed.includes(modelId)) return 'key';
  return undefined;
}
