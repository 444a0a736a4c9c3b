/**
 * The one rule of acknowledgement (spec "Endpoints 1", rule 2: only HTTP status exactly 200 counts;
 * 201, 204 and 3xx are failures). Every place that asks "did the receiver acknowledge?" (the outbox's
 * state machine, the inspector's figures, the log, the data dir's replay, `verify`, the dashboard's
 * `ui/dom.js` copy) asks this function.
 */
export function acknowledges(attempt: { outcome: string; statusCode?: number | null } | undefined): boolean {
  return attempt?.outcome === 'http_status' && attempt.statusCode === 200;
}
