/** The field shapes the domain's shapes and the admin contract's answers share (decision 0045). */
import { z } from 'zod';

export const str = z.string();
export const int = z.int();
/** An instant of emulator time as ISO 8601 (`…Z`). */
export const instant = z.string().meta({ format: 'date-time', description: 'emulator time (ISO 8601, UTC)' });
