import validator from 'validator';
import { validationError } from './errors.js';

/** RFC 5321's limit for a forward path; validator checks the 64-octet local part itself. */
export const EMAIL_MAX_LENGTH = 254;

const VALIDATOR_OPTIONS = {
  allow_display_name: false,
  require_display_name: false,
  allow_utf8_local_part: false,
  require_tld: true,
  allow_ip_domain: false,
  allow_underscores: false,
  ignore_max_length: false,
  domain_specific_validation: false,
} as const;

/**
 * Printable ASCII without the quote: no quoted local parts ("a,b"@x), no display names, comments or
 * lists, and no Unicode look-alikes in the domain. One address, as every mail library reads it alike.
 */
const PLAIN = /^[!#-~]+$/;

/**
 * The one way an e-mail address enters the system: exactly one plain `local@domain`, trimmed and
 * lower-cased as a whole (addresses are accounts' identities, so `Ann@X.test` and `ann@x.test` must
 * be one). Null when it is not such an address.
 */
export function normaliseEmailAddress(raw: string): string | null {
  const email = raw.trim().toLowerCase();
  if (email.length === 0 || email.length > EMAIL_MAX_LENGTH || !PLAIN.test(email)) return null;
  return validator.isEmail(email, VALIDATOR_OPTIONS) ? email : null;
}

/** Like normaliseEmailAddress, but refuses with 422 validation_failed naming `field`. */
export function requireEmailAddress(raw: string, field = 'email'): string {
  const email = normaliseEmailAddress(raw);
  if (email === null) throw validationError([{ field, message: 'must be an e-mail address' }]);
  return email;
}
