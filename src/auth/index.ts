import type { Clock } from '../clock/index.js';
import { type ChangeSink, RESET } from '../model/change-sink.js';
import { type FaultChange, FaultStore } from './faults.js';
import { getAccessToken, type TokenRequest } from './get-access-token.js';
import { Journal, type JournalChange } from './journal.js';
import { cryptoTokenSource, seededTokenSource, seededUnit } from './token-source.js';
import { MAX_TOKENS, type TokenChange, TokenStore } from './tokens.js';
import type { AuthResult } from './types.js';
import { type UserChange, UserStore } from './users.js';

export { failure, TRANSACTION_CODES } from './codes.js';
export { type Fault, FaultStore } from './faults.js';
export type { TokenRequest } from './get-access-token.js';
export {
  JOURNAL_ATTACHMENT,
  Journal,
  type JournalEntry,
} from './journal.js';
export { TokenStore } from './tokens.js';
export * from './types.js';
export { UserStore } from './users.js';

/** The GetAccessToken domain: users, tokens, the call journal and fault rules. No transport code. */
export interface AuthService {
  readonly users: UserStore;
  readonly tokens: TokenStore;
  readonly journal: Journal;
  readonly faults: FaultStore;
  /** Runs GetAccessToken on extracted credentials. */
  getAccessToken(req: TokenRequest): AuthResult;
  /** Forgets tokens, journal and faults; keeps users. */
  reset(): void;
}

export interface AuthDeps {
  clock: Clock;
  /** Seed for tokens and fault fractions; without one, tokens come from crypto randomness. */
  seed?: number;
  /** Told of every change of users, tokens, the journal and fault rules (src/change-stream.ts). */
  changes?: ChangeSink<UserChange | TokenChange | JournalChange | FaultChange>;
  /** Most journal entries kept (the `journalEntries` setting; 0: the journal is off). */
  journalEntries?: number;
}

/** Builds the auth service; users may be added afterwards (admin API, preload). */
export function createAuthService(deps: AuthDeps): AuthService {
  const { seed } = deps;
  const newSource = () => (seed === undefined ? cryptoTokenSource() : seededTokenSource(seed));
  const { changes } = deps;
  const users = new UserStore(changes);
  const tokens = new TokenStore(deps.clock, newSource, undefined, MAX_TOKENS, changes);
  const journal = new Journal(deps.journalEntries, changes);
  const faults = new FaultStore(seededUnit(seed ?? Date.now()), changes);
  return {
    users,
    tokens,
    journal,
    faults,
    getAccessToken: (req) => getAccessToken(users, tokens, req),
    reset() {
      tokens.apply(RESET);
      journal.apply(RESET);
      faults.apply(RESET);
    },
  };
}
