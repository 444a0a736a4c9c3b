import { OPTION_NAMES, type SettingNames } from '../config/names.js';
import { ConflictError, NotFoundError } from '../errors.js';
import { type Credential, httpWarning, parseCredential } from './credential-schema.js';

/**
 * The credentials notifications are routed to. They survive `reset` (product rule "Admin API": reset
 * forgets reservations and notifications, not configuration).
 */
export class CredentialStore {
  readonly #byId = new Map<string, Credential>();
  #nextId = 1;

  /** The one warning every plain-http credential and its notifications share. */
  readonly #httpWarning: string;

  constructor(
    private readonly allowHttp: boolean,
    private readonly names: SettingNames = OPTION_NAMES,
  ) {
    this.#httpWarning = httpWarning(names);
  }

  /**
   * Validates and adds a credential; `where` names its origin in errors (e.g. `credentials[1]`).
   * `options.omitAuthorization` is for the verify kit only (see `Credential.omitAuthorization`).
   */
  add(input: unknown, where = '', options: { omitAuthorization?: true } = {}): Credential {
    const parsed = parseCredential(input, this.allowHttp, where, this.names, this.#httpWarning);
    const id = parsed.id ?? this.#freeId();
    if (this.#byId.has(id)) {
      throw new ConflictError(
        'credential_exists',
        `A credential with id "${id}" already exists; delete it first or choose another id.`,
        {
          path: where ? `${where}.id` : 'id',
        },
      );
    }
    const { apiKey, url, filters, warnings } = parsed;
    const credential: Credential = {
      id,
      apiKey,
      url,
      filters,
      warnings,
      ...(options.omitAuthorization ? { omitAuthorization: true as const } : {}),
    };
    this.#byId.set(id, credential);
    return credential;
  }

  remove(id: string): void {
    if (!this.#byId.delete(id)) throw unknownCredential(id, this.list());
  }

  get(id: string): Credential | undefined {
    return this.#byId.get(id);
  }

  list(): Credential[] {
    return [...this.#byId.values()];
  }

  #freeId(): string {
    while (this.#byId.has(`c${this.#nextId}`)) this.#nextId++;
    return `c${this.#nextId++}`;
  }
}

function unknownCredential(id: string, known: Credential[]): NotFoundError {
  return new NotFoundError('credential_not_found', `No credential with id "${id}".`, {
    accepted: known.map((c) => c.id),
  });
}
