/**
 * The mix of the fault load: which write a client makes next, by weight. About one write in eight is
 * one that must be refused, so that "no refused write left a trace" is tested as often as durability.
 */
import * as bits from './ops-bits.js';
import * as content from './ops-content.js';
import type { Worker } from './worker.js';

type Op = (w: Worker) => Promise<boolean>;

const MIX: Array<[number, Op]> = [
  [3, (w) => bits.addBit(w, false)],
  [2.5, bits.updateBitFields],
  [2, bits.updateBitBody],
  [4, bits.connectBits],
  [1.5, bits.removeConnection],
  [0.6, bits.archiveBit],
  [1.2, content.createFlow],
  [1.2, content.updateFlow],
  [1.2, content.createReference],
  [0.8, content.updateReference],
  [2, content.linkReference],
  [0.8, content.updateLink],
  [0.8, content.unlinkReference],
  [1.2, content.startTrail],
  [3, content.submitStepData],
  // Writes that must be refused.
  [0.4, bits.addBitRefused],
  [0.4, bits.updateBitRefused],
  [0.5, bits.connectRefused],
  [0.3, bits.removeConnectionRefused],
  [0.3, bits.archiveRefused],
  [0.4, content.flowRefused],
  [0.3, content.referenceRefused],
  [0.4, content.linkRefused],
  [0.4, content.trailRefused],
];
const TOTAL = MIX.reduce((sum, [weight]) => sum + weight, 0);

/** One write of a worker: two pinned bits first (the targets other clients may connect to), then the mix. */
export async function step(w: Worker): Promise<void> {
  if (w.ownBits().filter((b) => b.pinned).length < 2) {
    await bits.addBit(w, true);
    return;
  }
  for (let attempt = 0; attempt < 8; attempt++) {
    let x = w.rnd.next() * TOTAL;
    const op = MIX.find(([weight]) => (x -= weight) < 0)?.[1] ?? MIX[0][1];
    if (await op(w)) return;
  }
  await bits.addBit(w, false);
}
