import type { Step, StepKind } from '../schema/index.js';

/** The kind of a step: its one key besides `name`. */
export function stepKind(step: Step): StepKind {
  return Object.keys(step).find((k) => k !== 'name') as StepKind;
}

/** A short human label: the step's `name`, or one built from its kind and main fields. */
export function stepLabel(step: Step): string {
  if (step.name) return step.name;
  const kind = stepKind(step);
  const v = (step as Record<string, unknown>)[kind] as Record<string, unknown> | null;
  if (!v) return kind;
  switch (kind) {
    case 'issue':
      return v.as ? `issue as ${v.as}` : 'issue';
    case 'void':
      return `void ${v.booking}`;
    case 'exchange':
      return `exchange ${v.booking}${v.as ? ` as ${v.as}` : ''}`;
    case 'redeliver':
      return `redeliver ${v.booking} as ${v.status}`;
    case 'advance':
      return v.by === undefined ? `advance to ${v.to}` : `advance by ${v.by}`;
    case 'login':
      return `login ${v.version} ${v.variant} as ${v.username}${v.casing === 'canonical' ? '' : ` (${v.casing} keys)`}${v.query ? ' (query)' : ''}`;
    case 'wait':
      return v.for === undefined ? 'wait until settled' : `wait ${v.for}`;
    case 'waitFor':
      return `waitFor ${Object.keys(v)
        .filter((k) => k !== 'timeout')
        .join(', ')}`;
    case 'expect':
      return `expect ${Object.keys(v).join(', ')}`;
    default:
      return kind;
  }
}
