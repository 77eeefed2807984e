import { ServiceError } from '../core/errors.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The published contract's `x-organization-id` header (and the skills endpoints' `organization_id` query
 * parameter) picks the organization among those the caller belongs to. A token here acts for exactly one
 * organization, so the value may only name that one: absent or equal, the request goes on; another
 * organization is a 403 (never a hint whether it exists); a value that is not a UUID is a 400.
 */
export function checkOrganization(value: unknown, organizationId: string, field: string): void {
  if (value === undefined) return;
  if (typeof value !== 'string' || !UUID.test(value.trim()))
    throw new ServiceError('H400', { message: `${field} must be an organization id (a UUID)` }, { field });
  if (value.trim().toLowerCase() !== organizationId.toLowerCase())
    throw new ServiceError(
      'H403',
      { message: `${field}: these credentials do not act for organization ${value.trim()}` },
      { field },
    );
}

/** The request header's name as an error's field. */
export const ORGANIZATION_HEADER_FIELD = 'header.x-organization-id';
