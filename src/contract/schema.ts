/**
 * The notification body (spec "Notification body (after GZip decompression)"), built once per mode: `lenient`
 * lets unknown members through (what a tolerant receiver accepts), `strict` rejects them (the
 * emulator's own self-check). Required/optional follows the spec tables; for tables without a
 * Required column see decision 0005.
 */
import { z } from 'zod';
import { BOOKING_STATUSES } from './events.js';
import {
  airline,
  airport,
  country,
  currency,
  decimal16,
  decimal20,
  localDateTime,
  maskedCardNumber,
  overPaxType,
  PAX_TYPES,
  paymentReference,
  ticketNumber,
  zuluDateTime,
} from './formats.js';

type Mode = 'lenient' | 'strict';

const text = () => z.string().min(1);
const positiveInt = () => z.number().int().positive();

/** Builds the whole body schema; objects are strict or loose according to `mode`. */
export function buildNotificationSchema(mode: Mode) {
  const obj = <S extends z.core.$ZodLooseShape>(shape: S) =>
    mode === 'strict' ? z.strictObject(shape) : z.looseObject(shape);

  const Reservation = obj({
    BookingNumber: text().describe('Provider locator code'),
    BookingStatus: z.enum(BOOKING_STATUSES),
    UpdateDate: zuluDateTime().describe('Time the event occurred (Zulu)'),
    TicketingDate: zuluDateTime(),
    BookingDate: zuluDateTime(),
    BookingID: positiveInt().describe('Internal booking identifier'),
    ExchangedTo: positiveInt().optional(),
    ExchangedFrom: positiveInt().optional(),
    ExternalID: z.string().optional(),
    Provider: text().describe('Code from the providers list'),
    PCCBook: text().describe('Booking PCC'),
    PCCIssue: text().describe('Ticketing PCC'),
    ValidatingCarrier: airline(),
    AirlineLocator: text(),
    PartnerCC: z.string().optional(),
    PartnerUser: z.string().optional(),
    BuyerDocument: z.string().optional(),
  });

  const Commission = obj({
    Pct: z.number(),
    // No Required column in the spec; optional like the other Partner* members (decision 0005).
    PartnerCDISC: z.number().optional(),
  });

  const Over = obj({
    OverPct: z.number(),
    OverCalculation: z.enum(['D', 'I']).optional(),
    OverPaxType: overPaxType(),
    PartnerODISC: z.number().optional(),
  });

  const ApiFees = obj({
    Application: text(),
    Currency: currency(),
    ContentCost: z.number().optional(),
    ContentFee: z.number(),
    ApiFee: z.number(),
  });
  const PartnerFees = obj({
    Application: text(),
    Currency: currency(),
    CFEE: z.number().optional(),
    AFEE: z.number().optional(),
  });
  const Fees = obj({ ApiFees, PartnerFees });

  const Remark = obj({ PaxNumber: positiveInt(), Type: text(), Text: z.string() });

  const Product = obj({
    Owner: text(),
    OwnProduct: z.boolean(),
    IdWeb: positiveInt(),
    WebOwner: text(),
    OwnChannel: z.boolean(),
  });

  const Ratio = obj({ Currency: currency(), Amount: decimal16(), TargetCurrency: currency() });

  const Van = obj({ Used: z.boolean(), CardType: text(), CardNumber: maskedCardNumber() });

  const CreditCard = obj({
    Type: z.string().regex(/^[A-Z]{2}$/, 'expected a 2-letter card code such as VI, CA, AX'),
    Number: maskedCardNumber(),
    // Entered by hand by the agent: may be missing (decision 0005).
    AuthCode: z.string().optional(),
    Installments: positiveInt().optional(),
  });

  const Payment = obj({
    Number: positiveInt().describe('Sequence number'),
    Type: text().describe('FARE, FEE, OFFERS (system values) or implementation-specific'),
    FOPtype: z.enum(['CASH', 'CC']),
    Currency: currency(),
    Amount: decimal20(),
    Reference: paymentReference(),
    CreditCard: CreditCard.optional().describe('Present when FOPtype is CC'),
  });

  const ticketCommon = {
    TicketId: positiveInt(),
    Number: ticketNumber().optional(),
    PaxNumber: positiveInt(),
    Currency: currency(),
    TotalAmount: decimal16(),
    FareAmount: decimal16().optional(),
    TaxAmount: decimal16().optional(),
    RawData: text(),
  };
  // SubType depends on Type (spec "Ticket (each element)"): ETK has MainTicket|ConjTicket, EMD provider text.
  const Ticket = z.discriminatedUnion('Type', [
    obj({ ...ticketCommon, Type: z.literal('ETK'), SubType: z.enum(['MainTicket', 'ConjTicket']) }),
    obj({ ...ticketCommon, Type: z.literal('EMD'), SubType: text() }),
  ]);

  const Segment = obj({
    LegNumber: positiveInt(),
    SegmentNumber: positiveInt(),
    Airline: airline(),
    Number: positiveInt().describe('Flight number'),
    DepartureAirport: airport(),
    DepartureCountry: country(),
    DepartureDate: localDateTime(),
    ArrivalAirport: airport(),
    ArrivalCountry: country(),
    ArrivalDate: localDateTime(),
    BookingClass: z.string().regex(/^[A-Z]$/, 'expected a one-letter class of service such as Y'),
  });

  const Purchase = obj({ Currency: currency(), Fare: decimal16(), Tax: decimal16() });
  const Pax = obj({
    PaxNumber: positiveInt(),
    PaxRef: text(),
    FirstName: text(),
    LastName: text(),
    Type: z.enum(PAX_TYPES),
    Purchase,
  });

  const TaxDetail = obj({ Code: text(), Amount: z.number() });
  const Tax = obj({ TicketId: positiveInt(), TaxDetails: z.array(TaxDetail).optional() });

  return obj({
    FileType: z.literal('Air').describe('Kind of file; only Air is used'),
    Reservation,
    Commission,
    Over,
    Fees,
    Remark: z.array(Remark).optional(),
    Product,
    Ratio: z.array(Ratio).optional(),
    Van: z.array(Van).optional(),
    Payment: z.array(Payment),
    Ticket: z.array(Ticket),
    Segment: z.array(Segment),
    Pax: z.array(Pax),
    Tax: z.array(Tax),
  }).meta({
    title: 'ReportBO notification body',
    description:
      'UTF-8 JSON object sent gzip-compressed by the ReportBO webhook (version 1.0), after decompression.',
  });
}
