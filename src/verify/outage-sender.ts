import type { DeliveryRequest, Sender } from '../delivery/index.js';
import type { SendResult } from '../delivery/outcome.js';

/** Marks the attempts the kit failed on purpose (they are left out of the answer-time figures). */
export const SIMULATED_OUTAGE = 'simulated outage (verify kit): the attempt was not sent';

/**
 * The emulator's HTTP sender with a switch: while `down`, attempts end as `connect_refused` without
 * touching the network. The kit uses it to leave notifications pending the way an outage would
 * (survives-batch-burst, acknowledges-redelivery); the redelivery batch then goes out through the
 * real sender, exactly as the provider's would.
 */
export class OutageSender implements Sender {
  down = false;

  constructor(private readonly real: Sender) {}

  send(request: DeliveryRequest): Promise<SendResult> {
    if (this.down)
      return Promise.resolve({ outcome: 'connect_refused', message: SIMULATED_OUTAGE, durationMs: 0 });
    return this.real.send(request);
  }

  close(): void {
    this.real.close();
  }
}
