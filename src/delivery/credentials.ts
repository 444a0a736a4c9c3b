import { OPTION_NAMES, type SettingNames } from '../config/names.js';
import { ConflictError, InputError, NotFoundError } from '../errors.js';
import { APPLY_ONLY, type ChangeSink } from '../model/change-sink.js';
import { type Credential, httpWarning, parseCredential } from './credential-schema.js';

/** What a CredentialStore changed (src/change-stream.ts). */
export type CredentialChange =
  | { kind: 'credential_added'; credential: Credential }
  | { kind: 'credential_replaced'; credential: Credential }
  | { kind: 'credential_removed'; id: string };

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
    private readonly changes: ChangeSink<CredentialChange> = APPLY_ONLY,
  ) {
    this.#httpWarning = httpWarning(names);
  }

  /**
   * Validates and adds a credential; `where` names its origin in errors (e.g. `credentials[1]`).
   * `options` are for the verify kit only (see `Credential.omitAuthorization` and `.authorization`).
   */
  add(
    input: unknown,
    where = '',
    options: { omitAuthorization?: true; authorization?: string } = {},
  ): Credential {
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
      ...(options.authorization === undefined ? {} : { authorization: options.authorization }),
    };
    this.changes.emit({ kind: 'credential_added', credential }, this);
    return credential;
  }

  /**
   * Replaces credential `id` with `input` (validated as `add` does; an `id` in the body must be the
   * same), keeping its place in the routing order. Notifications already made keep the URL and
   * ApiKey they were made with (product rule "Core concepts": headers never change across attempts).
   */
  replace(id: string, input: unknown): Credential {
    if (!this.#byId.has(id)) throw unknownCredential(id, this.list());
    const given = (input as { id?: unknown } | null)?.id;
    if (given !== undefined && given !== id) {
      throw new InputError(
        'credential_id_mismatch',
        `The body's id "${String(given)}" is not the id in the path ("${id}"); a credential's id cannot change: delete it and add a new one.`,
        { path: 'id' },
      );
    }
    const body = input !== null && typeof input === 'object' ? { ...input, id } : input;
    const { apiKey, url, filters, warnings } = parseCredential(
      body,
      this.allowHttp,
      '',
      this.names,
      this.#httpWarning,
    );
    const credential: Credential = { id, apiKey, url, filters, warnings };
    this.changes.emit({ kind: 'credential_replaced', credential }, this);
    return credential;
  }

  remove(id: string): void {
    if (!this.#byId.has(id)) throw unknownCredential(id, this.list());
    this.changes.emit({ kind: 'credential_removed', id }, this);
  }

  /**
   * The one writer of the credentials (decision 0212); reset keeps them (product rule "Admin API").
   * A replaced credential keeps its place in the routing order (Map.set on an existing key).
   */
  apply(change: CredentialChange): void {
    switch (change.kind) {
      case 'credential_added':
      case 'credential_replaced':
        this.#byId.set(change.credential.id, change.credential);
        break;
      case 'credential_removed':
        this.#byId.delete(change.id);
        break;
    }
  }

  /** The credentials, in routing order, as the changes that add them (`ChangeOwner`, decision 0274). */
  asChanges(): CredentialChange[] {
    return this.list().map((credential) => ({ kind: 'credential_added', credential }));
  }

  /**
   * A credential kept in a data dir, checked and given its warnings as `add` does; throws when it is
   * no longer accepted (an http:// receiver kept under --allow-http, read back without it).
   */
  readBack(kept: { id: string; omitAuthorization?: true | undefined }): Credential {
    const { omitAuthorization, ...input } = kept;
    const where = `data dir credential ${kept.id}`;
    const { apiKey, url, filters, warnings } = parseCredential(
      input,
      this.allowHttp,
      where,
      this.names,
      this.#httpWarning,
    );
    return {
      id: kept.id,
      apiKey,
      url,
      filters,
      warnings,
      ...(omitAuthorization ? { omitAuthorization } : {}),
    };
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
