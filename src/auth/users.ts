import type { z } from 'zod';
import { ConflictError, formatPath, InputError, NotFoundError } from '../errors.js';
import { UserSchema } from '../model/auth.js';
import { APPLY_ONLY, type ChangeSink } from '../model/change-sink.js';
import { parseOr, type Refusal } from '../model/refusal.js';

export { UserSchema };
export type User = z.infer<typeof UserSchema>;

/** A user as the admin API answers it: never the password (it was given, it is never echoed). */
export const UserViewSchema = UserSchema.omit({ password: true });
export type UserView = z.infer<typeof UserViewSchema>;

/** The answer form of a user, without its password. */
export function userView({ password: _secret, ...view }: User): UserView {
  return view;
}

/** How a user its schema refuses is answered; `where` prefixes the message (e.g. `users[2]` for a preload list). */
export function userRefusal(where = 'user'): Refusal {
  return {
    code: 'invalid_user',
    words: (issue, message) => {
      const path = formatPath(issue.path);
      return {
        message: `${where}: field ${path}: ${message}. A user is {"username","password","idWeb","webDescription","versions":["1.6","1.7"]}.`,
        details: {
          path: `${where}.${path}`,
          accepted: ['username', 'password', 'idWeb', 'webDescription', 'versions'],
        },
      };
    },
  };
}

/** Validates one user; `where` prefixes the message (e.g. `users[2]` for a preload list). */
export function parseUser(input: unknown, where = 'user'): User {
  return parseOr(UserSchema, userRefusal(where), input);
}

/** A user as `PUT /users/:username` takes it: the username may be left out (it is the path's). */
export const UserReplaceSchema = UserSchema.partial({ username: true });

/** What a UserStore changed (src/change-stream.ts). */
export type UserChange =
  | { kind: 'user_added'; user: User }
  | { kind: 'user_replaced'; user: User }
  | { kind: 'user_removed'; username: string };

/** The API users GetAccessToken authenticates against. Kept across resets (product rule "Admin API"). */
export class UserStore {
  readonly #users = new Map<string, User>();

  constructor(private readonly changes: ChangeSink<UserChange> = APPLY_ONLY) {}

  /** Adds a validated user; refuses a username that exists. */
  add(input: unknown, where?: string): User {
    const user = parseUser(input, where);
    if (this.#users.has(user.username)) {
      throw new ConflictError(
        'user_exists',
        `User "${user.username}" already exists. Delete it first (DELETE /__admin/users/${encodeURIComponent(user.username)}) to replace it.`,
      );
    }
    this.changes.emit({ kind: 'user_added', user }, this);
    return user;
  }

  /**
   * Replaces user `username` with `input` (validated as `add` does; a `username` in the body must
   * be the same). Tokens already issued stay valid until they expire.
   */
  replace(username: string, input: unknown): User {
    if (!this.#users.has(username)) {
      throw new NotFoundError('user_not_found', `No user "${username}". Known users: ${this.names()}.`);
    }
    const given = (input as { username?: unknown } | null)?.username;
    if (given !== undefined && given !== username) {
      throw new InputError(
        'username_mismatch',
        `The body's username "${String(given)}" is not the one in the path ("${username}"); a username cannot change: delete the user and add a new one.`,
        { path: 'username' },
      );
    }
    const user = parseUser(input !== null && typeof input === 'object' ? { ...input, username } : input);
    this.changes.emit({ kind: 'user_replaced', user }, this);
    return user;
  }

  get(username: string): User | undefined {
    return this.#users.get(username);
  }

  list(): User[] {
    return [...this.#users.values()];
  }

  /** Removes a user; 404 when unknown. */
  remove(username: string): void {
    if (!this.#users.has(username)) {
      throw new NotFoundError('user_not_found', `No user "${username}". Known users: ${this.names()}.`);
    }
    this.changes.emit({ kind: 'user_removed', username }, this);
  }

  /** The one writer of the users (decision 0212); reset keeps them (product rule "Admin API"). */
  apply(change: UserChange): void {
    switch (change.kind) {
      case 'user_added':
      case 'user_replaced':
        this.#users.set(change.user.username, change.user);
        break;
      case 'user_removed':
        this.#users.delete(change.username);
        break;
    }
  }

  /** The users as the changes that add them (`ChangeOwner`, decision 0274). */
  asChanges(): UserChange[] {
    return this.list().map((user) => ({ kind: 'user_added', user }));
  }

  private names(): string {
    const names = [...this.#users.keys()];
    return names.length ? names.map((n) => `"${n}"`).join(', ') : '(none)';
  }
}
