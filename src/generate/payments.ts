/**
 * Form of payment and Payment rows. Reconciliation rule (decision 0006): per Type, in the booking
 * currency, FARE payments sum to the ETK TotalAmounts, FEE to the fees charged (ContentFee + ApiFee +
 * CFEE + AFEE), OFFERS to the EMD TotalAmounts.
 */
import type { Payment } from '../contract/index.js';
import { DIGITS, LETTERS, type Rng } from './random.js';
import type { Currency } from './reference/index.js';
import { toAmount } from './units.js';

type CreditCard = NonNullable<Payment['CreditCard']>;

export interface FormOfPayment {
  FOPtype: 'CASH' | 'CC';
  CreditCard?: CreditCard;
  /** The FOP line of RawData. */
  raw: string;
}

// Card brand code, visible leading digits and PAN length.
const CARDS: ReadonlyArray<readonly [string, string, number]> = [
  ['VI', '4', 16],
  ['CA', '5', 16],
  ['AX', '37', 15],
  ['DC', '36', 14],
];

/** A masked PAN: first 6 and last 4 digits visible, the rest X (PCI DSS). */
export function maskedPan(rng: Rng, lead: string, length: number): string {
  const first6 = lead + rng.chars(6 - lead.length, DIGITS);
  return `${first6}${'X'.repeat(length - 10)}${rng.chars(4, DIGITS)}`;
}

/** Chooses how the booking is paid: a card most of the time, cash otherwise. */
export function chooseFormOfPayment(rng: Rng): FormOfPayment {
  if (rng.chance(0.35)) return { FOPtype: 'CASH', raw: 'CASH' };
  const [type, lead, length] = rng.pick(CARDS);
  const card: CreditCard = { Type: type, Number: maskedPan(rng, lead, length) };
  if (rng.chance(0.8)) card.AuthCode = rng.chars(6, DIGITS + LETTERS);
  if (rng.chance(0.6))
    card.Installments = rng.weighted([
      [1, 6],
      [3, 2],
      [6, 2],
      [12, 1],
    ]);
  return { FOPtype: 'CC', CreditCard: card, raw: `CC ${type}${card.Number}` };
}

export interface PaymentContext {
  fop: FormOfPayment;
  currency: Currency;
  /** ETK fare + tax per PaxNumber, minor units. */
  etkByPax: ReadonlyMap<number, number>;
  feesMinor: number;
  /** EMD totals per PaxNumber, minor units. */
  emdByPax: ReadonlyMap<number, number>;
}

/** Builds the Payment rows so they reconcile with tickets and fees. */
export function buildPayments(rng: Rng, ctx: PaymentContext): Payment[] {
  const out: Payment[] = [];
  const add = (Type: string, minor: number, Reference: string, fop: FormOfPayment = ctx.fop) => {
    const p: Payment = {
      Number: out.length + 1,
      Type,
      FOPtype: fop.FOPtype,
      Currency: ctx.currency.code,
      Amount: toAmount(minor, ctx.currency),
      Reference,
    };
    if (fop.CreditCard) p.CreditCard = fop.CreditCard;
    out.push(p);
  };
  let fareTotal = 0;
  for (const v of ctx.etkByPax.values()) fareTotal += v;

  const mode = rng.weighted([
    ['single', 65],
    ['perPax', ctx.etkByPax.size > 1 ? 20 : 0],
    ['split', ctx.fop.FOPtype === 'CC' && fareTotal > 1 ? 15 : 0],
  ] as const);
  if (mode === 'perPax') {
    for (const [pax, minor] of ctx.etkByPax) add('FARE', minor, String(pax));
  } else if (mode === 'split') {
    // Part by card, the rest in cash, both for every passenger.
    const card = Math.max(1, Math.floor(fareTotal * (0.3 + rng.next() * 0.5)));
    add('FARE', card, 'ALL');
    add('FARE', fareTotal - card, 'ALL', { FOPtype: 'CASH', raw: 'CASH' });
  } else {
    add('FARE', fareTotal, 'ALL');
  }
  if (ctx.feesMinor > 0) add('FEE', ctx.feesMinor, 'ALL');
  if (ctx.emdByPax.size > 0) {
    let emdTotal = 0;
    for (const v of ctx.emdByPax.values()) emdTotal += v;
    add('OFFERS', emdTotal, [...ctx.emdByPax.keys()].sort((a, b) => a - b).join(','));
  }
  return out;
}
