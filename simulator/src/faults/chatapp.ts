/**
 * Faults of the messaging-app channel switch (§4.5): each overrides the seam of what enabling the
 * channel needs (routes/chatapp.ts). Probes: simulator/test/faults/chatapp.test.ts.
 */
import { enableRequirements } from '../routes/chatapp.ts';
import { override } from '../seam.ts';
import { defineFaults } from './define.ts';

/** The chatapp faults. */
export const CHATAPP_FAULTS = defineFaults([
  {
    name: 'chatapp.enable-without-onboarding',
    clauses: ['4.5/chatapp-enabled-needs-number'],
    description: 'PATCH /assistants/{id}/chatapp-enabled enables the channel without a linked, onboarded number.',
    override: override(enableRequirements, () => () => ({ linkedNumber: false, onboarded: false })),
  },
  {
    name: 'chatapp.no-number-accepted',
    clauses: ['4.5/chatapp-enabled-needs-number'],
    description: 'PATCH …/chatapp-enabled accepts an assistant with no linked number (only the never-onboarded case is refused).',
    override: override(enableRequirements, (next) => () => ({ ...next(), linkedNumber: false })),
  },
]);
