import type { Dispatcher } from 'undici';
import type { ConnectionWatch } from '../connection-watch.js';
import { type AttemptContext, type AttemptPiece, Forward } from './piece.js';

/**
 * Learns which connection one try is written on, and which request on it: the pieces after it read
 * it from the context (`connection`) once the request head is written, e.g. whether the connection
 * was reused, whether any answer byte came back and how many interim (1xx) responses were dropped.
 * undici runs `onRequestStart` synchronously right before it writes the head (connection-watch.ts).
 * One per try: a retry on a new connection gets a new one.
 */
export class ConnectionClaim extends Forward {
  constructor(
    next: AttemptPiece,
    readonly watch: ConnectionWatch,
  ) {
    super(next);
  }

  override onRequestStart(controller: Dispatcher.DispatchController, context: AttemptContext): void {
    const mine: AttemptContext = { ...context, connection: undefined };
    this.watch.claimNextRequest((request) => {
      mine.connection = request;
    });
    super.onRequestStart(controller, mine);
  }
}
