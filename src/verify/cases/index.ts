/** Every case, in the order they run: the connection first, the run-wide timing last. */
import { acknowledgesEveryStatus, acknowledgesIssue, acknowledgesRedelivery } from './acknowledge.js';
import { rejectsMissingAuthorization, rejectsWrongApiKey } from './auth.js';
import { acceptsMaximalBody, acceptsMinimalBody } from './bodies.js';
import { survivesBatchBurst } from './burst.js';
import type { CaseDefinition } from './case.js';
import { recordsConcurrentIssueAndVoid } from './concurrent.js';
import { acceptsLargeBody, acceptsOldUpdateDate } from './large-and-old.js';
import { recordsNewestUpdateDate } from './ordering.js';
import { recordsFinalStatus, sameSecondFilenameCollision } from './recorded.js';
import { answersWithinTimeout } from './timing.js';
import { tls } from './tls.js';
import { handlesVoidBeforeIssue } from './void-before-issue.js';

export type { CaseDefinition, Outcome } from './case.js';

export const CASES: readonly CaseDefinition[] = [
  tls,
  acknowledgesIssue,
  acknowledgesEveryStatus,
  rejectsWrongApiKey,
  rejectsMissingAuthorization,
  acknowledgesRedelivery,
  handlesVoidBeforeIssue,
  acceptsMinimalBody,
  acceptsMaximalBody,
  acceptsLargeBody,
  acceptsOldUpdateDate,
  survivesBatchBurst,
  recordsFinalStatus,
  sameSecondFilenameCollision,
  recordsConcurrentIssueAndVoid,
  recordsNewestUpdateDate,
  answersWithinTimeout,
];
