/**
 * Faults of the model and transcriber catalogues (§2.10, §4.5): each overrides one seam of
 * routes/models.ts or routes/transcribers.ts. Probes: simulator/test/faults/catalog.test.ts.
 */
import { modelsListed } from '../routes/models.ts';
import { transcribersListed } from '../routes/transcribers.ts';
import { override } from '../seam.ts';
import { defineFaults } from './define.ts';

/** The catalogue faults. */
export const CATALOG_FAULTS = defineFaults([
  {
    name: 'catalog.model-type-missing',
    clauses: ['2.10/model-type', '4.5/models-catalogue'],
    description: 'One GET /models entry has no `type`.',
    override: override(modelsListed, (next) => () => {
      const list = next();
      delete list[list.length - 1].type;
      return list;
    }),
  },
  {
    name: 'catalog.transcriber-language-missing',
    clauses: ['2.10/transcriber-language'],
    description: 'GET /transcribers entries lack `language`.',
    override: override(transcribersListed, (next) => () => next().map(({ language: _language, ...t }) => t)),
  },
]);
