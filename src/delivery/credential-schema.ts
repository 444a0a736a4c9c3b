import { OPTION_NAMES, type SettingNames } from '../config/names.js';
import { formatPath, InputError } from '../errors.js';
import { ApiKeySchema, CredentialInputSchema } from '../model/credential.js';
import { parseOr, type Refusal } from '../model/refusal.js';

export { ApiKeySchema, CredentialInputSchema };

/** A stored credential: id assigned, URL checked, warnings attached. */
export interface Credential {
  id: string;
  apiKey: string;
  url: string;
  filters: { pcc?: string[]; idWeb?: number[] };
  /** e.g. the plain-http warning under --allow-http. */
  warnings: string[];
  /**
   * Send no Authorization header at all. Only the `verify` kit sets it (its rejects-missing-authorization
   * case, through `CredentialStore.add`'s options); the admin API and config files cannot: their schema
   * has no such member, and the provider always sends `Bearer <ApiKey>` (spec "Authentication" 1).
   */
  omitAuthorization?: true;
  /**
   * The exact Authorization value to send instead of `Bearer <apiKey>` (a malformed one: `Basic …`,
   * `Bearer ` with no token). Only the `verify` kit sets it, as `omitAuthorization`.
   */
  authorization?: string;
}

/** Warning attached to http destinations (and to every notification sent to them), naming the setting as its user gave it. */
export function httpWarning(names: SettingNames): string {
  return `plain http destination accepted because of ${names.name('allowHttp')}; the provider only delivers over HTTPS with TLS 1.2 or higher`;
}

/** A field's path below `where` (`credentials[2].url`; the field alone without `where`). */
function fieldAt(where: string, path: readonly PropertyKey[]): string {
  const field = formatPath(path);
  if (!where) return field;
  return field === '(root)' ? where : `${where}${field.startsWith('[') ? '' : '.'}${field}`;
}

/** How a credential its schema refuses is answered; `where` prefixes the field path (e.g. `credentials[2]`). */
export function credentialRefusal(where = ''): Refusal {
  return {
    code: 'invalid_credential',
    words: (issue, message) => {
      const path = fieldAt(where, issue.path);
      return { message: `Credential ${path}: ${message}.`, details: { path } };
    },
  };
}

/**
 * Validates credential input, naming the field and what was expected in the error. `where` prefixes
 * the field path (e.g. `credentials[2]` for a config file entry).
 */
export function parseCredential(
  input: unknown,
  allowHttp: boolean,
  where = '',
  names: SettingNames = OPTION_NAMES,
  warning = httpWarning(names),
): Omit<Credential, 'id'> & { id?: string } {
  const at = (path: readonly PropertyKey[]) => fieldAt(where, path);
  const { id, apiKey, url, filters = {} } = parseOr(CredentialInputSchema, credentialRefusal(where), input);
  const warnings: string[] = [];
  let parsedUrl: URL;
  try {
    parsedUrl = new URL(url);
  } catch {
    throw new InputError(
      'invalid_credential',
      `Credential ${at(['url'])}: "${url}" is not an absolute URL; expected e.g. https://receiver.example/hook.`,
      {
        path: at(['url']),
      },
    );
  }
  if (parsedUrl.protocol === 'http:') {
    if (!allowHttp) {
      throw new InputError(
        'http_not_allowed',
        `Credential ${at(['url'])}: "${url}" is plain http; the provider only delivers over HTTPS (TLS 1.2 or higher). ` +
          `Use an https URL, or for local receivers ${names.howToSet('allowHttp', 'true')}.`,
        { path: at(['url']), accepted: ['https:'] },
      );
    }
    warnings.push(warning);
  } else if (parsedUrl.protocol !== 'https:') {
    throw new InputError(
      'invalid_credential',
      `Credential ${at(['url'])}: scheme "${parsedUrl.protocol}" is not supported; use https.`,
      {
        path: at(['url']),
        accepted: ['https:'],
      },
    );
  }
  if (parsedUrl.username || parsedUrl.password) {
    throw new InputError(
      'invalid_credential',
      `Credential ${at(['url'])}: user information in the URL is not supported; the ApiKey is sent as the Bearer token.`,
      { path: at(['url']) },
    );
  }
  return {
    ...(id === undefined ? {} : { id }),
    apiKey,
    url: parsedUrl.href,
    filters: {
      ...(filters.pcc ? { pcc: filters.pcc } : {}),
      ...(filters.idWeb ? { idWeb: filters.idWeb } : {}),
    },
    warnings,
  };
}
